import Foundation

extension Connection {
    /// True on macOS: there `fsync` hands the data to the drive, which may keep it in its cache and
    /// write it in any order, so a power cut can lose a commit or leave the WAL and the database
    /// out of step. Apple's SQLite implements its `fullfsync` settings with `F_BARRIERFSYNC`, which
    /// keeps the writes in order; only `F_FULLFSYNC` (``flushCommitToMedium()``) empties the drive's
    /// cache. On Linux `fsync` flushes the drive's cache itself (with write barriers) and the
    /// pragmas have no effect.
    package static var platformNeedsFullFsync: Bool {
        #if os(macOS)
        return true
        #else
        return false
        #endif
    }

    /// Settings for an ingest run, which is one large transaction. A page cache large enough for the
    /// run's working set and no larger (SQLite spills the rest to the WAL, and more only costs
    /// memory) and temporary tables in memory.
    ///
    /// Durability: with `synchronous = NORMAL` in WAL mode a commit does not sync the WAL, so a power
    /// cut may lose the last run; a checkpoint syncs before it copies, so the file stays consistent
    /// wherever the sync reaches the medium (Linux; not a drive that acknowledges flushes it has not
    /// done). With `fullFsync` (macOS) the commit that ends the run and the checkpoints are synced
    /// (`synchronous = FULL`: one sync per run, the run being one transaction) with the barrier that
    /// keeps the file consistent; ``flushCommitToMedium()`` then makes the run's commit durable.
    package func configureForIngestRun(fullFsync: Bool = Connection.platformNeedsFullFsync) throws {
        _ = try query("PRAGMA cache_size = -16384")
        _ = try query("PRAGMA temp_store = MEMORY")
        // Both set either way: Apple's SQLite turns checkpoint_fullfsync on unless told otherwise.
        _ = try query(fullFsync ? "PRAGMA fullfsync = ON" : "PRAGMA fullfsync = OFF")
        _ = try query(fullFsync ? "PRAGMA checkpoint_fullfsync = ON" : "PRAGMA checkpoint_fullfsync = OFF")
        _ = try query(fullFsync ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
    }
}

extension Connection {
    /// The file that holds the last commit until a checkpoint copies it: the `-wal` file in WAL
    /// mode; nil in rollback-journal mode (a new catalogue's first run), whose commit went straight
    /// into the database file.
    package func writeAheadLogPath() throws -> String? {
        try queryFirst("PRAGMA journal_mode")?[0].string?.lowercased() == "wal" ? path + "-wal" : nil
    }

    /// After a run's commit, on Darwin: `fcntl(F_FULLFSYNC)` on the write-ahead log, so that the run
    /// is on the drive's medium, not only in the cache SQLite's barrier sync leaves it in. Nothing in
    /// rollback-journal mode: closing a descriptor of our own on the database file would drop the
    /// POSIX locks SQLite holds on it (they are per process), and that run is still written in order.
    /// A no-op elsewhere, where `fsync` already empties the drive's cache. Never fails: the run is
    /// committed whatever happens here.
    package func flushCommitToMedium() {
        #if canImport(Darwin)
        guard let wal = (try? writeAheadLogPath()) ?? nil else { return }
        // SQLite locks the -shm and database files, never the -wal: closing this releases nothing.
        let descriptor = open(wal, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        // A file system without F_FULLFSYNC (some network volumes) gets what fsync gives, as in SQLite.
        if fcntl(descriptor, F_FULLFSYNC) == -1 { _ = fsync(descriptor) }
        #endif
    }
}
