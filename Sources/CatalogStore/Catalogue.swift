import Foundation

/// A catalogue file as the commands above the store use it: opened to read (never migrated or
/// written) or to write (created and migrated), with its queries, its ingest transaction and typed
/// errors. Nothing above the store needs to know it is SQLite.
package final class Catalogue {
    package var path: String { connection.path }
    let connection: Connection

    /// A catalogue on an open connection (tests, and the openers below).
    package init(_ connection: Connection) {
        self.connection = connection
    }

    /// Opens the catalogue at `path` to read it. A missing file is `StoreError.missing`. Opened
    /// read-write when the file allows it, so SQLite can recover a WAL left by a killed ingest and
    /// set up shared memory, but never migrated or written; a reader with read rights alone opens
    /// it read-only (README, "Sharing a catalogue").
    package static func openForReading(path: String) throws -> Catalogue {
        guard FileManager.default.fileExists(atPath: path) else { throw StoreError.missing(path: path) }
        guard access(path, W_OK) == 0 else { return Catalogue(try Connection.openCatalogue(path: path, readOnly: true)) }
        let connection = try Connection(path: path, readOnly: false, wal: false)
        try Migrator().checkUpToDate(connection)
        return Catalogue(connection)
    }

    /// Opens the catalogue at `path` to write it, creating (mode 0600) and migrating it as needed.
    /// With `mustExist`, a missing file is `StoreError.missing` instead of a new catalogue. A second
    /// writer waits up to `busyTimeout` seconds for the first, then fails with `StoreError.busy`.
    /// The folder it goes in is created when missing (a first ingest into a new place).
    package static func openForWriting(path: String, mustExist: Bool = false, busyTimeout: Double = 120) throws -> Catalogue {
        let engine = CatalogueEngine(path)
        if engine.isPostgreSQL { throw StoreError.writingNotSupported(catalogue: engine.description) }
        if mustExist, !FileManager.default.fileExists(atPath: path) { throw StoreError.missing(path: path) }
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
        } catch {
            throw StoreError.cannotCreateFolder(path: path, reason: error.localizedDescription)
        }
        do {
            let connection = try Connection.openCatalogue(path: path)
            connection.setBusyTimeout(milliseconds: Int32(busyTimeout * 1000))
            return Catalogue(connection)
        } catch let error as SQLiteError {
            throw StoreError.mapping(error, path: path)
        }
    }

    package var queries: CatalogQueries { CatalogQueries(connection) }

    /// The queries of the catalogue `name` names (`--db`, `$CATALOG_DB`), opened to read: a SQLite
    /// file (``openForReading(path:)``), or a PostgreSQL database (`postgresql://…`, issue 16), which
    /// must be at this binary's schema. Needs libpq only for PostgreSQL.
    package static func openQueries(_ name: String) throws -> CatalogQueries {
        switch CatalogueEngine(name) {
        case .sqlite(let path):
            return try openForReading(path: path).queries
        case .postgreSQL(let connectionString):
            let connection = try PostgreSQLConnection(connectionString)
            try PostgreSQLMigrator().checkUpToDate(connection)
            return CatalogQueries(connection)
        }
    }

    /// The writer an ingest or prune uses inside `writeRun`.
    package var writer: CatalogWriter { CatalogWriter(connection) }

    /// One ingest run: the connection set up for a large write (each platform's sync), then `body`
    /// in one IMMEDIATE transaction — all of it is stored or none. SQLite's busy, full and
    /// read-only failures come out as `StoreError.busy`, `.diskFull` and `.readOnly`.
    package func writeRun<T>(_ body: () throws -> T) throws -> T {
        do {
            try connection.configureForIngestRun()
            return try connection.transaction(.immediate, body)
        } catch let error as SQLiteError {
            throw StoreError.mapping(error, path: path)
        }
    }

    /// Marks the locations `catalog prune` removed, in one transaction.
    package func recordPruned(_ paths: [String], at date: Date) throws {
        let writer = self.writer
        do {
            try connection.transaction { for path in paths { try writer.recordPruned(path: path, at: date) } }
        } catch let error as SQLiteError {
            throw StoreError.mapping(error, path: path)
        }
    }

    /// Ends a command that wrote: leaves WAL mode so that whoever may only read the file can query
    /// it. False when another process has it open, so it stays in WAL mode for now.
    package func leaveWAL(waitingUpTo seconds: Double) throws -> Bool {
        try connection.leaveWAL(waitingUpTo: seconds)
    }
}
