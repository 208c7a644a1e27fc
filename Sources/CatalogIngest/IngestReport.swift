import CatalogStore
import Foundation

/// What a run did, for the summary line, the runs table and the tests.
package struct IngestReport: Sendable {
    package var runID: Int64 = 0
    /// Candidates the walk found (checked against the incremental index).
    package var filesScanned = 0
    /// Candidates not read because their size and mtime are those of the last run.
    package var filesUnchanged = 0
    /// Files read this run: changed or new since the last run, or in error then. `filesScanned` is
    /// `filesUnchanged + filesRead` unless a file vanished between the walk and its read.
    package var filesRead = 0
    /// Files read whose content was decoded: a copy of content already decoded in the run is read
    /// and hashed, not decoded again.
    package var filesDecoded = 0
    /// Files left out on purpose: Info.plists found not an app's (or with build-setting placeholders,
    /// or not a property list), read this run or unchanged since a run that read them, and the
    /// AppleDouble sidecars of would-be candidates.
    package var filesSkipped = 0
    /// Of `filesSkipped`, the AppleDouble sidecars (`._name`), never read.
    package var sidecarsSkipped = 0
    /// Of `filesSkipped`, the zips that hold no dSYM (or do not read as zips).
    package var zipsSkipped = 0
    package var profilesNew = 0
    package var profilesRenewed = 0
    package var profilesRemoved = 0
    package var profilesTotal = 0
    package var buildsSeen = 0
    package var buildsNew = 0
    package var buildsRemoved = 0
    package var buildsTotal = 0
    package var errors: [(path: String, message: String)] = []
    /// Roots that could not be read at all, or were refused because they yielded no file (also in
    /// `errors`): nothing under them was marked removed.
    package var failedRoots: [(path: String, message: String)] = []
    /// Roots read and found to yield no file, in the order walked.
    package var emptyRoots: [EmptyRoot] = []
    package var seconds: Double = 0

    /// A root that yielded no file: what the catalogue held there as present when the run began, and
    /// whether the run refused it (then it is in `failedRoots` too) rather than mark that removed.
    package struct EmptyRoot: Sendable, Equatable {
        package var path: String
        package var heldLocations: Int
        package var heldBuilds: Int
        package var refused: Bool

        package var hadHistory: Bool { heldLocations + heldBuilds > 0 }
    }

    package var counts: RunCounts {
        var counts = RunCounts()
        counts.filesScanned = filesScanned
        counts.filesUnchanged = filesUnchanged
        counts.filesDecoded = filesDecoded
        counts.profilesNew = profilesNew
        counts.profilesRenewed = profilesRenewed
        counts.profilesRemoved = profilesRemoved
        counts.buildsSeen = buildsSeen
        counts.buildsNew = buildsNew
        counts.buildsRemoved = buildsRemoved
        counts.errors = errors.count
        return counts
    }

    /// `checked 10234 files in 1.2s (read 52, 10182 unchanged): 812 profiles (+12 new, 3 renewed,
    /// 5 removed), 4211 builds (+2 new, 0 removed); 2 errors; 1 skipped (1 Info.plist not an app's …)`.
    /// Profile and build counts are what the catalogue holds as present after the run.
    package var summary: String {
        let time = seconds < 10 ? String(format: "%.2fs", seconds) : String(format: "%.1fs", seconds)
        var line = "checked \(filesScanned) file\(filesScanned == 1 ? "" : "s") in \(time) "
            + "(read \(filesRead), \(filesUnchanged) unchanged): "
            + "\(profilesTotal) profile\(profilesTotal == 1 ? "" : "s") (+\(profilesNew) new, "
            + "\(profilesRenewed) renewed, \(profilesRemoved) removed), "
            + "\(buildsTotal) build\(buildsTotal == 1 ? "" : "s") (+\(buildsNew) new, \(buildsRemoved) removed)"
        line += "; \(errors.count) error" + (errors.count == 1 ? "" : "s")
        if filesSkipped > 0 {
            let plists = filesSkipped - sidecarsSkipped - zipsSkipped
            var why: [String] = []
            if plists > 0 { why.append("\(plists) Info.plist\(plists == 1 ? "" : "s") not an app's or with $(…) placeholders") }
            if zipsSkipped > 0 { why.append("\(zipsSkipped) zip\(zipsSkipped == 1 ? "" : "s") without an app or dSYMs") }
            if sidecarsSkipped > 0 {
                why.append("\(sidecarsSkipped) AppleDouble ._ sidecar\(sidecarsSkipped == 1 ? "" : "s")")
            }
            line += "; \(filesSkipped) skipped (" + why.joined(separator: ", ") + ")"
        }
        return line
    }
}
