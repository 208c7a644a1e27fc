import Foundation

/// What one `catalog ingest` run covers and how.
package struct IngestOptions: Sendable {
    /// Absolute folders or files to walk.
    package var roots: [String]
    /// Glob patterns (fnmatch) matched against each entry's name and full path.
    package var excludes: [String] = []
    /// Re-read everything, ignoring the incremental index.
    package var full = false
    /// How many candidates are decoded in parallel between two rounds of writes.
    package var batchSize = 256
    #if CATALOG_TEST_HOOKS
    /// Test builds only: SIGKILL this process after this many writes (a run dying mid-transaction).
    package var crashAfterWrites: Int?
    /// Test builds only: SIGSTOP this process once after this many writes (a run caught mid-transaction,
    /// resumed by the test with SIGCONT).
    package var stopAfterWrites: Int?
    #endif
    /// Finds each root's on-disk spelling and identity (tests substitute a case-folding double).
    package var pathResolver: any PathResolving = SystemPathResolver()

    package init(roots: [String], excludes: [String] = [], full: Bool = false) {
        self.roots = roots
        self.excludes = excludes
        self.full = full
    }
}

/// What a run did, for the summary line, the runs table and the tests.
package struct IngestReport: Sendable {
    package var runID: Int64 = 0
    package var filesScanned = 0
    package var filesUnchanged = 0
    /// Files actually read and decoded (the incremental tests assert on it).
    package var filesDecoded = 0
    package var filesSkipped = 0
    package var profilesNew = 0
    package var profilesRenewed = 0
    package var profilesRemoved = 0
    package var profilesTotal = 0
    package var buildsSeen = 0
    package var buildsNew = 0
    package var buildsRemoved = 0
    package var buildsTotal = 0
    package var errors: [(path: String, message: String)] = []
    package var seconds: Double = 0

    package var counts: [String: Int] {
        [
            "files_scanned": filesScanned, "files_unchanged": filesUnchanged, "files_decoded": filesDecoded,
            "profiles_new": profilesNew, "profiles_renewed": profilesRenewed, "profiles_removed": profilesRemoved,
            "builds_seen": buildsSeen, "builds_new": buildsNew, "builds_removed": buildsRemoved,
            "errors": errors.count,
        ]
    }

    /// `ingested 10234 files in 1.2s: 812 profiles (+12 new, 3 renewed, 5 removed), 4211 builds; 2 errors`
    package var summary: String {
        let time = seconds < 10 ? String(format: "%.2fs", seconds) : String(format: "%.1fs", seconds)
        var line = "ingested \(filesScanned) files in \(time): \(profilesTotal) profiles (+\(profilesNew) new, "
            + "\(profilesRenewed) renewed, \(profilesRemoved) removed), \(buildsTotal) builds"
        if buildsNew > 0 || buildsRemoved > 0 { line += " (+\(buildsNew) new, \(buildsRemoved) removed)" }
        line += "; \(errors.count) error" + (errors.count == 1 ? "" : "s")
        if filesUnchanged > 0 { line += "; \(filesUnchanged) unchanged" }
        if filesSkipped > 0 { line += "; \(filesSkipped) skipped" }
        return line
    }
}
