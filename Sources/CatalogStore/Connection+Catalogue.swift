import Foundation

extension Connection {
    /// Opens the catalogue at `path`, creating it (mode 0600) if missing, and migrates it to the
    /// schema this binary knows.
    ///
    /// The order matters for "refused, not altered": the file is checked to be SQLite and its
    /// recorded schema compared with this binary's before anything is written — WAL mode included,
    /// since switching to WAL rewrites the file header.
    /// Read-only opens never migrate; they fail if the catalogue is not fully migrated.
    package static func openCatalogue(path: String, readOnly: Bool = false,
                                      migrator: Migrator? = nil) throws -> Connection {
        let migrator = try migrator ?? Migrator()
        let connection: Connection
        do {
            connection = try Connection(path: path, readOnly: readOnly, wal: false)
        } catch let error as SQLiteError
            where readOnly && (error.primaryCode == SQLiteError.readOnly || error.primaryCode == SQLiteError.cantOpen)
            && Connection.headerSaysWAL(path) == true && !FileManager.default.fileExists(atPath: path + "-shm") {
            // A catalogue left in WAL mode (by a catalog before issue 9, or an ingest that could not
            // switch back because another process held the file) without its -shm file: SQLite needs
            // to create one, and this reader may not write beside the file.
            throw StoreError.cannotOpen(path: path, reason: """
                it is in WAL mode without its -shm file, which a reader without write access to its \
                folder cannot create (\(error.message)); the next 'catalog ingest' by its owner leaves it \
                readable with read access alone
                """)
        }
        try migrator.checkCompatible(connection)
        if readOnly {
            let found = try migrator.currentVersion(of: connection)
            if found < migrator.latestVersion {
                throw StoreError.outdatedSchema(path: path, found: found, known: migrator.latestVersion)
            }
            return connection
        }
        try connection.enableWAL()
        try migrator.migrate(connection)
        return connection
    }
}
