/// The counts a finished run records in `ingest_runs`, one field per column, so a misspelt name
/// cannot quietly write 0.
package struct RunCounts: Sendable, Equatable {
    package var filesScanned = 0
    package var filesUnchanged = 0
    package var filesDecoded = 0
    package var profilesNew = 0
    package var profilesRenewed = 0
    package var profilesRemoved = 0
    package var buildsSeen = 0
    package var buildsNew = 0
    package var buildsRemoved = 0
    package var errors = 0

    package init() {}
}
