import Foundation

extension Connection {
    /// True on macOS: there `fsync` hands the data to the drive, which may keep it in its cache and
    /// write it in any order, so a power cut can lose a commit or leave the WAL and the database
    /// out of step. Only `fcntl(F_FULLFSYNC)`, which SQLite's `fullfsync` settings use, flushes the
    /// drive. On Linux `fsync` flushes the drive's cache itself (with write barriers) and the
    /// pragmas have no effect.
    package static var platformNeedsFullFsync: Bool {
        #if os(macOS)
        return true
        #else
        return false
        #endif
    }

    /// Settings for an ingest run, which is one large transaction. A 16 MB page cache (SQLite spills
    /// the rest to the WAL; a larger one bought no speed and cost 50 MB of RSS) and temporary tables
    /// in memory.
    ///
    /// Durability: with `synchronous = NORMAL` in WAL mode a commit does not sync the WAL, so a power
    /// cut may lose the last run; a checkpoint syncs before it copies, so the file stays consistent
    /// wherever the sync reaches the medium (Linux; not a drive that acknowledges flushes it has not
    /// done). With `fullFsync` (macOS) the commit that ends the run is synced (`synchronous = FULL`:
    /// one sync per run, the run being one transaction) with F_FULLFSYNC, and checkpoints too.
    package func configureForIngestRun(fullFsync: Bool = Connection.platformNeedsFullFsync) throws {
        _ = try query("PRAGMA cache_size = -16384")
        _ = try query("PRAGMA temp_store = MEMORY")
        if fullFsync {
            _ = try query("PRAGMA fullfsync = ON")
            _ = try query("PRAGMA checkpoint_fullfsync = ON")
            _ = try query("PRAGMA synchronous = FULL")
        } else {
            _ = try query("PRAGMA synchronous = NORMAL")
        }
    }
}
