import CatalogCore
import CCatalogSQLite
import Foundation

/// One connection to a SQLite database file, with a cache of prepared statements.
///
/// Opened with `SQLITE_OPEN_NOMUTEX`: SQLite does no locking of its own for this handle. That is
/// safe because `Connection` is deliberately not `Sendable` — Swift's checker keeps each connection
/// in a single isolation domain (one task, actor or thread). Code that needs concurrency opens one
/// connection per task; WAL mode lets readers run alongside the single writer, and the busy timeout
/// makes a second writer wait instead of failing at once.
///
/// Statements run through `execute`/`query` are prepared once and cached by their SQL text, so SQL
/// should be constant strings with `?`/`:name` parameters — which is also the only way values get in.
package final class Connection {
    package enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED"
        /// Takes the write lock at BEGIN, so a read-then-write transaction cannot fail half-way with SQLITE_BUSY.
        case immediate = "IMMEDIATE"
    }

    /// Process-wide SQLite settings, made once before the first connection opens.
    private static let configureSQLite: Void = { _ = ccatalog_sqlite_stop_memory_statistics() }()

    /// The page size of a catalogue file this binary creates, larger than SQLite's default so that a
    /// profile's stored plist does not spill into several partly filled overflow pages, each a
    /// system call to write and a page-cache entry to manage. A file made before keeps its pages
    /// (SQLite changes them only in a `VACUUM`, which catalog never runs).
    /// Kept for speed and size: cold ingest and catalogue size (bench.py).
    static let newFilePageSize = 16_384

    /// How long a statement waits for another connection's lock before failing with SQLITE_BUSY.
    package static let busyTimeoutMilliseconds: Int32 = 10_000

    package let path: String
    package let isReadOnly: Bool
    private let db: OpaquePointer
    private var statementCache: [String: Statement] = [:]
    var savepointDepth = 0
    private var busyTimeoutMilliseconds = Connection.busyTimeoutMilliseconds

    /// Opens (and, unless `readOnly`, creates) the database at `path`.
    ///
    /// A file created here gets mode 0600 — catalogues list team names, device UDIDs and
    /// certificates. An existing file keeps its mode. Foreign keys are switched on, a busy timeout is
    /// set, and the file is checked to be SQLite before anything is written. With `wal` (the default
    /// for read-write connections) the journal mode is switched to WAL; ``openCatalogue(path:readOnly:migrator:)``
    /// defers that until it knows the schema is one it may touch.
    package init(path: String, readOnly: Bool = false, wal: Bool = true) throws {
        _ = Self.configureSQLite
        if !readOnly { try Self.createPrivateFileIfMissing(path) }
        var handle: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(db: handle, code: code, sql: nil)
            sqlite3_close_v2(handle)
            throw StoreError.cannotOpen(path: path, reason: error.message)
        }
        self.db = handle
        self.path = path
        self.isReadOnly = readOnly
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)

        // The first read of the header tells a SQLite file from anything else, and writes nothing.
        do {
            _ = try query("SELECT count(*) FROM sqlite_master")
        } catch let error as SQLiteError where error.primaryCode == SQLiteError.notADatabase {
            throw StoreError.notADatabase(path: path)
        } catch let error as SQLiteError where error.extendedCode == SQLiteError.readOnlyRollback {
            throw StoreError.interruptedWrite(path: path)
        }
        // A file with no page yet (new, or created empty) gets the catalogue's page size; SQLite
        // ignores the pragma for any other, which keeps the size it was made with.
        if !readOnly, try queryFirst("PRAGMA page_count")?[0].int64 == 0 {
            _ = try query("PRAGMA page_size = \(Self.newFilePageSize)")
        }
        try execute("PRAGMA foreign_keys = ON")
        if wal && !readOnly { try enableWAL() }
    }

    deinit {
        statementCache.removeAll()
        // close_v2 waits for any statement still referenced elsewhere to be finalized.
        sqlite3_close_v2(db)
    }

    /// How long statements wait for another connection's lock (an ingest waits longer than a query).
    package func setBusyTimeout(milliseconds: Int32) {
        busyTimeoutMilliseconds = milliseconds
        sqlite3_busy_timeout(db, milliseconds)
    }

    /// Switches the file to write-ahead logging (persistent: recorded in the file header).
    ///
    /// A no-op when the file already is in WAL mode. The switch needs an exclusive lock and SQLite
    /// does not run the busy handler for it, so two processes opening a new catalogue at once would
    /// see one fail at once with "database is locked": it is retried for the busy timeout instead.
    package func enableWAL() throws {
        let deadline = Date().addingTimeInterval(Double(busyTimeoutMilliseconds) / 1000)
        while true {
            do {
                if try queryFirst("PRAGMA journal_mode")?[0].string?.lowercased() == "wal" { return }
                _ = try query("PRAGMA journal_mode = WAL")
                return
            } catch let error as SQLiteError
                where (error.primaryCode == SQLiteError.busy || error.primaryCode == SQLiteError.locked)
                && Date() < deadline {
                usleep(10_000)
            }
        }
    }

    /// Checkpoints the write-ahead log into the file and switches it to a rollback journal
    /// (`journal_mode=DELETE`), which removes the `-wal` and `-shm` files. A WAL-mode file can only be
    /// read by someone who can open (or create) its `-shm` file; after this, whoever may read the file
    /// alone can query it — a teammate with group read, or anyone on a 0444 copy in a 0555 folder.
    ///
    /// SQLite refuses the switch while any other connection has the file open (readers keep a shared
    /// lock in WAL mode), so it is retried for up to `seconds`. Returns false if it could not be done
    /// in that time: the file then stays in WAL mode, intact, until a later call succeeds.
    package func leaveWAL(waitingUpTo seconds: Double) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        let previousTimeout = busyTimeoutMilliseconds
        // Short waits per attempt: the switch may or may not go through the busy handler.
        setBusyTimeout(milliseconds: 50)
        defer { setBusyTimeout(milliseconds: previousTimeout) }
        while true {
            do {
                return try queryFirst("PRAGMA journal_mode = DELETE")?[0].string?.lowercased() == "delete"
            } catch let error as SQLiteError
                where error.primaryCode == SQLiteError.busy || error.primaryCode == SQLiteError.locked {
                if Date() >= deadline { return false }
                usleep(20_000)
            }
        }
    }

    /// The journal mode recorded in the file header: true for WAL (bytes 18 and 19 are 2), false for
    /// a rollback journal, nil when the header cannot be read.
    package static func headerSaysWAL(_ path: String) -> Bool? {
        guard let header = try? FileBytes.prefix(path, count: 20), header.count == 20 else { return nil }
        return header[18] == 2 || header[19] == 2
    }

    // MARK: Running statements

    /// Runs one statement with positional parameters; returns the number of rows it changed.
    @discardableResult
    package func execute(_ sql: String, _ parameters: [SQLValue] = []) throws -> Int {
        try withStatement(sql) { statement in
            try statement.bind(parameters)
            while try statement.step() {}
        }
        return changes
    }

    /// Runs one statement with named parameters (`:name`, `@name` or `$name`).
    @discardableResult
    package func execute(_ sql: String, _ parameters: [String: SQLValue]) throws -> Int {
        try withStatement(sql) { statement in
            try statement.bind(parameters)
            while try statement.step() {}
        }
        return changes
    }

    /// Runs a script of several statements without parameters (migrations). Statements are not
    /// cached; an error names the statement that failed.
    package func executeScript(_ sql: String) throws {
        try sql.withCString { start in
            var cursor = start
            while cursor.pointee != 0 {
                var handle: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(db, cursor, -1, &handle, &tail)
                let end = tail ?? cursor + strlen(cursor)
                let text = String(decoding: UnsafeRawBufferPointer(start: cursor, count: cursor.distance(to: end)),
                                  as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                guard code == SQLITE_OK else {
                    sqlite3_finalize(handle)
                    throw SQLiteError(db: db, code: code, sql: text)
                }
                guard end > cursor else { return }
                cursor = end
                guard let handle else { continue }  // only comments or whitespace
                defer { sqlite3_finalize(handle) }
                var step: Int32
                repeat { step = sqlite3_step(handle) } while step == SQLITE_ROW
                guard step == SQLITE_DONE else { throw SQLiteError(db: db, code: step, sql: text) }
            }
        }
    }

    /// All rows of a query.
    package func query(_ sql: String, _ parameters: [SQLValue] = []) throws -> [Row] {
        var rows: [Row] = []
        try forEachRow(sql, parameters) { rows.append($0) }
        return rows
    }

    package func query(_ sql: String, _ parameters: [String: SQLValue]) throws -> [Row] {
        var rows: [Row] = []
        try withStatement(sql) { statement in
            try statement.bind(parameters)
            while try statement.step() { rows.append(statement.row()) }
        }
        return rows
    }

    /// The first row of a query, if any.
    package func queryFirst(_ sql: String, _ parameters: [SQLValue] = []) throws -> Row? {
        try withStatement(sql) { statement in
            try statement.bind(parameters)
            return try statement.step() ? statement.row() : nil
        }
    }

    /// Calls `body` for each row as it is read, without collecting them.
    package func forEachRow(_ sql: String, _ parameters: [SQLValue] = [],
                            _ body: (Row) throws -> Void) throws {
        try withStatement(sql) { statement in
            try statement.bind(parameters)
            while try statement.step() { try body(statement.row()) }
        }
    }

    /// A statement that is not cached, for callers that manage binding and stepping themselves.
    package func prepare(_ sql: String) throws -> Statement {
        try Statement(db: db, sql: sql, persistent: false)
    }

    package var lastInsertRowID: Int64 {
        get { sqlite3_last_insert_rowid(db) }
        set { sqlite3_set_last_insert_rowid(db, newValue) }
    }
    /// Rows changed by the last INSERT, UPDATE or DELETE.
    package var changes: Int { Int(sqlite3_changes(db)) }
    package var isInTransaction: Bool { sqlite3_get_autocommit(db) == 0 }

    // MARK: Transactions

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    /// Inside another transaction it becomes a savepoint, so it still rolls back only its own work.
    package func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        try runTransaction(begin: "BEGIN \(kind.rawValue)", body)
    }

    // MARK: Private

    /// Runs `body` with the cached statement for `sql` (prepared on first use), reset afterwards.
    /// A statement already in use further up the stack is not shared: a fresh one is prepared.
    private func withStatement<T>(_ sql: String, _ body: (Statement) throws -> T) throws -> T {
        let statement: Statement
        if let cached = statementCache[sql], !cached.isBusy {
            statement = cached
        } else if statementCache[sql] == nil {
            statement = try Statement(db: db, sql: sql, persistent: true)
            statementCache[sql] = statement
        } else {
            statement = try Statement(db: db, sql: sql, persistent: false)
        }
        statement.isBusy = true
        defer {
            statement.reset()
            statement.isBusy = false
        }
        return try body(statement)
    }

    /// Creates an empty file with mode 0600 if nothing exists at `path`, so SQLite opens a private
    /// file rather than creating one with the umask's default (usually world-readable).
    private static func createPrivateFileIfMissing(_ path: String) throws {
        guard !path.isEmpty, path != ":memory:" else { return }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 {
            close(fd)
        } else if errno != EEXIST {
            let reason = String(cString: strerror(errno))
            throw StoreError.cannotOpen(path: path, reason: reason)
        }
    }
}
