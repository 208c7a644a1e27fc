import Foundation

extension Connection {
    /// Opens the catalogue at `path`, creating it (mode 0600) if missing, and migrates it to the
    /// schema this binary knows.
    ///
    /// The order matters for "refused, not altered": the file is checked to be SQLite and its
    /// recorded schema compared with this binary's before anything is written — WAL mode included,
    /// since switching to WAL rewrites the file header. A file this open creates is left in
    /// rollback-journal mode for its first run; every later open for writing switches it to WAL.
    /// Read-only opens never migrate; they fail if the catalogue is not fully migrated.
    ///
    /// `busyTimeout` (milliseconds) applies from the start, so that the switch to WAL mode and the
    /// migration wait as long as the writer's statements will for another writer: a new catalogue's
    /// first ingest holds a lock that the switch waits for.
    package static func openCatalogue(path: String, readOnly: Bool = false, migrator: Migrator? = nil,
                                      busyTimeout: Int32? = nil) throws -> Connection {
        let migrator = try migrator ?? Migrator()
        let connection: Connection
        do {
            connection = try Connection(path: path, readOnly: readOnly, wal: false)
        } catch let error as SQLiteError where readOnly {
            throw walReaderFailure(path: path, error) ?? error
        }
        if let busyTimeout { connection.setBusyTimeout(milliseconds: busyTimeout) }
        if readOnly {
            try migrator.checkUpToDate(connection)
            return connection
        }
        try migrator.checkCompatible(connection)
        // A new file stays in rollback-journal mode until its first run ends: SQLite journals only
        // the pages a file had when the transaction began, so the first ingest writes each page
        // once, where WAL mode writes it to the log and copies it again at the checkpoint (kept for
        // speed: cold ingest, bench.py). Readers lose nothing that exists: until that run commits
        // the catalogue holds no rows. The next write opens it in WAL mode.
        if try migrator.currentVersion(of: connection) > 0 { try connection.enableWAL() }
        try migrator.migrate(connection)
        return connection
    }

    /// Why a read-only open of a WAL-mode catalogue failed, in words that say what to do; nil when
    /// the failure is something else. A WAL reader needs the `-shm` file beside the catalogue, and a
    /// reader who may not write in the folder can neither create it nor open one it may not read.
    private static func walReaderFailure(path: String, _ error: SQLiteError) -> StoreError? {
        guard error.primaryCode == SQLiteError.readOnly || error.primaryCode == SQLiteError.cantOpen,
              headerSaysWAL(path) == true else { return nil }
        let shm = path + "-shm"
        if !FileManager.default.fileExists(atPath: shm) {
            // Left in WAL mode by an older catalog, or by an ingest that could not switch back
            // because another process held the file.
            return .cannotOpen(path: path, reason: """
                it is in WAL mode without its -shm file, which a reader without write access to its folder \
                cannot create (\(error.message)); the next 'catalog ingest' by its owner leaves it readable \
                with read access alone
                """)
        }
        if access(shm, R_OK) != 0 {
            return .cannotOpen(path: path, reason: """
                an ingest is running (or was interrupted) and its \((shm as NSString).lastPathComponent) \
                is not readable by you (\(error.message)); give the catalogue's folder the setgid bit \
                (chmod 2750) so the files an ingest creates belong to the group, or query again when it has finished
                """)
        }
        return nil
    }
}
