import Foundation

/// What one `catalog ingest` run covers and how.
package struct IngestOptions: Sendable {
    /// Absolute folders or files to walk.
    package var roots: [String]
    /// Patterns of entries not to walk, as `.gitignore` writes them (see `ExcludePattern`).
    package var excludes: [String] = []
    /// Re-read everything, ignoring the incremental index.
    package var full = false
    /// Accept a root that yields no file although the catalogue holds present locations under it:
    /// mark them removed. Otherwise such a root (an unmounted share looks like an empty folder) is
    /// refused and left as it was.
    package var allowEmpty = false
    /// How many candidates make one batch: decoded together on the background thread while the
    /// previous batch is written.
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
