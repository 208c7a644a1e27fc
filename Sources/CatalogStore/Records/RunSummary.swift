import Foundation

/// One ingest run as `runs` lists it.
package struct RunSummary: Sendable, Equatable {
    package var runID: Int64
    /// The host the run walked; nil for a SQLite catalogue's own, unnamed host.
    package var host: String?
    package var startedAt: Date?
    package var finishedAt: Date?
    package var status: RunStatus
    /// Why a `failed` or `partial` run failed: each root that could not be read, or the write.
    package var reason: String?
    /// The folders walked.
    package var roots: [String]
    package var counts: RunCounts
}

extension RunSummary {
    init(_ row: Row, json: inout StoredJSON) throws {
        var counts = RunCounts()
        counts.filesScanned = row.int("files_scanned") ?? 0
        counts.filesUnchanged = row.int("files_unchanged") ?? 0
        counts.filesDecoded = row.int("files_decoded") ?? 0
        counts.profilesNew = row.int("profiles_new") ?? 0
        counts.profilesRenewed = row.int("profiles_renewed") ?? 0
        counts.profilesRemoved = row.int("profiles_removed") ?? 0
        counts.buildsSeen = row.int("builds_seen") ?? 0
        counts.buildsNew = row.int("builds_new") ?? 0
        counts.buildsRemoved = row.int("builds_removed") ?? 0
        counts.errors = row.int("errors") ?? 0
        self.init(runID: row.int64("id") ?? 0, host: row.string("host"), startedAt: row.date("started_at"), finishedAt: row.date("finished_at"),
                  status: try row.value("status", as: RunStatus.self), reason: row.string("reason"),
                  roots: json.strings(row.string("roots")), counts: counts)
    }
}
