import Foundation

/// A catalogue as the commands above the store use it: opened to read (never migrated or written)
/// or to write (created and migrated), with its queries, its ingest transaction and typed errors.
/// Nothing above the store needs to know whether it is a SQLite file or a PostgreSQL database.
package final class Catalogue {
    /// Where the catalogue is: the SQLite file's path, or the PostgreSQL connection string redacted.
    package var path: String {
        switch storage {
        case .sqlite(let connection): return connection.path
        case .postgreSQL(let run, _): return run.displayName
        }
    }

    /// The host whose rows a writer of this catalogue writes ('' : a SQLite catalogue's own machine).
    package let host: String

    private enum Storage {
        case sqlite(Connection)
        /// The connection of the run's transaction (holding the host's ingest lock), and the one
        /// that commits shared rows profile by profile (``CatalogWriter``).
        case postgreSQL(run: PostgreSQLConnection, shared: PostgreSQLConnection)
    }

    private let storage: Storage

    /// A catalogue on an open connection (tests, and the openers below), written as `host`'s.
    package init(_ connection: Connection, host: String = "") {
        self.storage = .sqlite(connection)
        self.host = host
    }

    private init(run: PostgreSQLConnection, shared: PostgreSQLConnection, host: String) {
        self.storage = .postgreSQL(run: run, shared: shared)
        self.host = host
    }

    /// Opens the catalogue at `path` to read it. A missing file is `StoreError.missing`. Opened
    /// read-write when the file allows it, so SQLite can recover a WAL left by a killed ingest and
    /// set up shared memory, but never migrated or written; a reader with read rights alone opens
    /// it read-only (docs/catalogue-file.md, "Sharing a catalogue").
    package static func openForReading(path: String) throws -> Catalogue {
        guard FileManager.default.fileExists(atPath: path) else { throw StoreError.missing(path: path) }
        guard access(path, W_OK) == 0 else { return Catalogue(try Connection.openCatalogue(path: path, readOnly: true)) }
        let connection = try Connection(path: path, readOnly: false, wal: false)
        try Migrator().checkUpToDate(connection)
        return Catalogue(connection)
    }

    /// Opens the catalogue `name` names to write `host`'s rows: a SQLite file, created (mode 0600)
    /// and migrated as needed — with `mustExist`, a missing file is `StoreError.missing` — whose
    /// folder is created when missing; or a PostgreSQL database (`postgresql://…`), migrated, with
    /// `host`'s ingest lock held until this catalogue is released. A second writer (of the same host,
    /// on PostgreSQL) waits up to `busyTimeout` seconds for the first — `onWait` is called once when
    /// it starts waiting there — then fails with `StoreError.busy` (SQLite) or `.hostBusy` (PostgreSQL).
    package static func openForWriting(path name: String, host: String = "", mustExist: Bool = false,
                                       busyTimeout: Double = 120, onWait: () -> Void = {}) throws -> Catalogue {
        switch CatalogueEngine(name) {
        case .sqlite(let path):
            return try openSQLiteForWriting(path: path, host: host, mustExist: mustExist, busyTimeout: busyTimeout)
        case .postgreSQL(let connectionString):
            guard !host.isEmpty else { throw StoreError.hostRequired(catalogue: ConnectionString.redacted(connectionString)) }
            let run = try PostgreSQLConnection(connectionString)
            do {
                try run.lockIngest(host: host, waitingUpTo: busyTimeout, onWait: onWait)
            } catch let error as PostgreSQLError where error.condition == .lockNotAvailable {
                throw StoreError.hostBusy(catalogue: run.displayName, host: host)
            }
            let migrator = try PostgreSQLMigrator()
            // A database with no catalogue in it is "missing" to a command that needs one (prune).
            if mustExist, try migrator.currentVersion(of: run) == 0 {
                throw StoreError.missing(path: run.displayName)
            }
            try migrator.migrate(run)
            let shared = try PostgreSQLConnection(connectionString)
            // Each profile's shared rows commit on their own: waiting for the WAL flush of every
            // one of them was most of a first ingest's time. Without the wait a server crash may
            // lose the last few — rows the next run writes again — and the run's own commit, which
            // does wait, flushes the WAL before it, so once a run has committed all its shared rows
            // are on disk too.
            try shared.execute("SELECT set_config('synchronous_commit', 'off', false)")
            return Catalogue(run: run, shared: shared, host: host)
        }
    }

    private static func openSQLiteForWriting(path: String, host: String, mustExist: Bool,
                                             busyTimeout: Double) throws -> Catalogue {
        if mustExist, !FileManager.default.fileExists(atPath: path) { throw StoreError.missing(path: path) }
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
        } catch {
            throw StoreError.cannotCreateFolder(path: path, reason: error.localizedDescription)
        }
        do {
            let connection = try Connection.openCatalogue(path: path, busyTimeout: Int32(busyTimeout * 1000))
            return Catalogue(connection, host: host)
        } catch let error as SQLiteError {
            throw StoreError.mapping(error, path: path)
        }
    }

    package var queries: CatalogQueries {
        switch storage {
        case .sqlite(let connection): return CatalogQueries(connection)
        case .postgreSQL(let run, _): return CatalogQueries(run)
        }
    }

    /// The queries of the catalogue `name` names (`--db`, `$CATALOG_DB`), opened to read: a SQLite
    /// file (``openForReading(path:)``), or a PostgreSQL database (`postgresql://…`), which
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
    package var writer: CatalogWriter {
        switch storage {
        case .sqlite(let connection): return CatalogWriter(connection, host: host)
        case .postgreSQL(let run, let shared): return CatalogWriter(run, shared: shared, host: host)
        }
    }

    /// One ingest run: on SQLite the connection set up for a large write (each platform's sync),
    /// then `body` in one IMMEDIATE transaction — all of it is stored or none; into an empty
    /// catalogue the secondary indexes are built, and the references checked, once at the end of
    /// it. SQLite's busy, full and read-only failures come out as `StoreError.busy`, `.diskFull` and
    /// `.readOnly`. On PostgreSQL the host's rows are one transaction; shared rows are committed as
    /// they are written (``CatalogWriter``).
    package func writeRun<T>(_ body: () throws -> T) throws -> T {
        switch storage {
        case .sqlite(let connection):
            do {
                try connection.configureForIngestRun()
                // Into an empty catalogue, references are checked once at the end (read before the
                // transaction; if another ingest fills the catalogue meanwhile, the check still runs).
                let checkReferencesAtEnd = try connection.deferForeignKeysIfEmpty()
                defer { if checkReferencesAtEnd { _ = try? connection.execute("PRAGMA foreign_keys = ON") } }
                let result = try connection.transaction(.immediate) {
                    let deferred = try connection.dropSecondaryIndexesIfEmpty()
                    let result = try body()
                    try connection.createIndexes(deferred)
                    if checkReferencesAtEnd { try connection.checkForeignKeys() }
                    return result
                }
                connection.flushCommitToMedium()
                return result
            } catch let error as SQLiteError {
                throw StoreError.mapping(error, path: path)
            }
        case .postgreSQL(let run, _):
            return try run.transaction(.readCommitted, body)
        }
    }

    /// Marks the locations `catalog prune` removed, in one transaction.
    package func recordPruned(_ paths: [String], at date: Date) throws {
        let writer = self.writer
        try writeRun { for path in paths { try writer.recordPruned(path: path, at: date) } }
    }

    /// Ends a command that wrote: leaves WAL mode so that whoever may only read the file can query
    /// it. False when another process has it open, so it stays in WAL mode for now.
    /// True at once on PostgreSQL, which has no such file.
    package func leaveWAL(waitingUpTo seconds: Double) throws -> Bool {
        guard case .sqlite(let connection) = storage else { return true }
        return try connection.leaveWAL(waitingUpTo: seconds)
    }
}
