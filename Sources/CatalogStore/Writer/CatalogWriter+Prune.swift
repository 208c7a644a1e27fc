import Foundation

extension CatalogWriter {
    /// Records that `catalog prune` removed the standalone profile file at `path` (moved to the
    /// trash or deleted): its location is marked removed, as an ingest that no longer finds it
    /// would, and its incremental index entry dropped.
    package func recordPruned(path: String, at now: Date) throws {
        try markLocationRemoved(path: path, at: now)
        try forgetFile(path)
    }
}
