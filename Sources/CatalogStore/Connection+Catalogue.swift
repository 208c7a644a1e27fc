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
        let connection = try Connection(path: path, readOnly: readOnly, wal: false)
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
