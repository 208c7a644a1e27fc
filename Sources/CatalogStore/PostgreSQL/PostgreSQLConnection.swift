import Foundation

/// One connection to a PostgreSQL server through libpq (loaded at run time, see ``LibPQ``).
///
/// Opened from a URI (`postgresql://…`, `postgres://…`) or a libpq keyword string (`host=… dbname=…`),
/// so libpq's own conventions work unchanged: `PGHOST`, `PGDATABASE`, `PGSERVICE`/`pg_service.conf`,
/// `~/.pgpass`, `PGSSLMODE`, … fill in whatever the string leaves out. Every error and ``displayName``
/// shows the string redacted (``ConnectionString/redacted(_:)``).
///
/// Statements run with `PQexecParams`: parameters are always bound (`$1`, `$2`, … in text format;
/// blobs in binary), never spliced into SQL. Like ``Connection`` it is not `Sendable`: one connection
/// per task or thread.
package final class PostgreSQLConnection {
    package enum Isolation: String, Sendable {
        case readCommitted = "READ COMMITTED"
        case repeatableRead = "REPEATABLE READ"
        case serializable = "SERIALIZABLE"
    }

    /// The connection string with its password removed: for messages and logs.
    package let displayName: String
    let pq: LibPQ
    private let handle: OpaquePointer
    var savepointDepth = 0
    /// Statements run more than once, prepared on the server under a name (`catalog_1`, …), so
    /// the server parses and plans them once: a writer runs the same few statements per profile.
    private var preparedNames: [String: String] = [:]
    /// How often each statement not yet prepared has run.
    private var runs: [String: Int] = [:]
    /// At most this many statements are prepared per connection (a session's statements live until
    /// it ends); the rest run unprepared.
    static let preparedLimit = 256

    /// Connects, or throws ``LibPQError`` (no libpq) or ``PostgreSQLError`` with SQLSTATE 08001
    /// (``PostgreSQLError/Condition/connectionFailure``) naming the redacted connection string.
    package init(_ connectionString: String, library: LibPQ? = nil) throws {
        let pq = try library ?? LibPQ.loaded()
        let displayName = ConnectionString.redacted(connectionString)
        guard let handle = Self.connect(pq, connectionString) else {
            throw PostgreSQLError(sqlState: PostgreSQLError.cannotConnect,
                                  message: "cannot connect to \(displayName): out of memory")
        }
        guard pq.status(handle) == LibPQ.connectionOK else {
            let reason = pq.errorMessage(handle).map { String(cString: $0) } ?? "unknown error"
            pq.finish(handle)
            let message = ConnectionString.redacted(message: reason, connectionString: connectionString)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            throw PostgreSQLError(sqlState: PostgreSQLError.cannotConnect,
                                  message: "cannot connect to \(displayName): \(message)")
        }
        self.pq = pq
        self.handle = handle
        self.displayName = displayName
        // Notices ("relation … already exists, skipping") would go to stderr by default: drop them.
        _ = pq.setNoticeProcessor(handle, { _, _ in }, nil)
        // Text in and out is UTF-8 whatever the server's or the environment's default.
        try execute("SELECT set_config('client_encoding', 'UTF8', false)")
        // A query whose client has gone (a script killed, ^C in a terminal) stops on the server
        // within seconds instead of running to its end (PostgreSQL 14 and later can tell).
        if serverVersion >= 140_000 {
            try execute("SELECT set_config('client_connection_check_interval', '5s', false)")
        }
    }

    deinit {
        pq.finish(handle)
    }

    /// How long a connection attempt may take when neither the connection string (`connect_timeout`)
    /// nor the environment (`PGCONNECT_TIMEOUT`) says: libpq's own default is to wait forever, and
    /// a nightly ingest must not hang on a server that is down.
    package static let defaultConnectTimeoutSeconds = 10

    /// `PQconnectdbParams` with the connection string as an expanded `dbname` placed after our
    /// default `connect_timeout`, so a `connect_timeout` in the string overrides the default.
    private static func connect(_ pq: LibPQ, _ connectionString: String) -> OpaquePointer? {
        var pairs: [(String, String)] = []
        if ProcessInfo.processInfo.environment["PGCONNECT_TIMEOUT"] == nil {
            pairs.append(("connect_timeout", String(defaultConnectTimeoutSeconds)))
        }
        pairs.append(("dbname", connectionString))
        let keywords = pairs.map { strdup($0.0) } + [nil]
        let values = pairs.map { strdup($0.1) } + [nil]
        defer { (keywords + values).forEach { free($0) } }
        let constKeywords = keywords.map { $0.map { UnsafePointer($0) } }
        let constValues = values.map { $0.map { UnsafePointer($0) } }
        return constKeywords.withUnsafeBufferPointer { keywords in
            constValues.withUnsafeBufferPointer { values in
                pq.connectdbParams(keywords.baseAddress, values.baseAddress, 1)
            }
        }
    }

    /// The server's version as a number, e.g. 150004 for 15.4.
    package var serverVersion: Int { Int(pq.serverVersion(handle)) }

    /// True inside BEGIN … COMMIT (also when the transaction has failed and awaits ROLLBACK).
    package var isInTransaction: Bool {
        let status = pq.transactionStatus(handle)
        return status == LibPQ.transactionInBlock || status == LibPQ.transactionInError
    }

    // MARK: Running statements

    /// Runs one statement; returns the number of rows it changed.
    @discardableResult
    package func execute(_ sql: String, _ parameters: [SQLValue] = []) throws -> Int {
        try run(sql, parameters).changes
    }

    /// All rows of a query.
    package func query(_ sql: String, _ parameters: [SQLValue] = []) throws -> [Row] {
        try run(sql, parameters).rows
    }

    /// The first row of a query, if any.
    package func queryFirst(_ sql: String, _ parameters: [SQLValue] = []) throws -> Row? {
        let result = try run(sql, parameters)
        return result.rowCount > 0 ? result.row(0) : nil
    }

    /// Runs a script of several statements without parameters (migrations), in one round trip.
    /// Outside a transaction the server runs the whole script as one implicit transaction.
    package func executeScript(_ sql: String) throws {
        guard let result = pq.exec(handle, sql) else { throw connectionError(sql: sql) }
        let wrapped = PostgreSQLResult(pq: pq, handle: result)
        try check(wrapped, sql: sql)
    }

    // MARK: Transactions

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    /// Inside another transaction it becomes a savepoint, rolling back only its own work.
    package func transaction<T>(_ isolation: Isolation = .readCommitted, _ body: () throws -> T) throws -> T {
        try runTransaction(begin: "BEGIN ISOLATION LEVEL \(isolation.rawValue)", body)
    }

    /// Runs `body` as a transaction, and runs it again from the start — up to `attempts` times in
    /// all — while it fails with a serialization failure or a deadlock (``PostgreSQLError/isRetryable``):
    /// the server rolled it back whole, so running it again is safe and is what PostgreSQL asks for.
    /// `body` must therefore have no effects outside the database (or tolerate repeating them).
    package func retryingTransaction<T>(_ isolation: Isolation = .readCommitted, attempts: Int = 5,
                                        _ body: () throws -> T) throws -> T {
        // Nested, a retry could not start again: the server has already rolled back the outer one.
        // A mistake of the caller's, reported as an error rather than a crash.
        guard !isInTransaction else {
            throw PostgreSQLError(sqlState: "25001",  // active_sql_transaction
                                  message: "a retried transaction cannot run inside another transaction")
        }
        var attempt = 1
        while true {
            do {
                return try transaction(isolation, body)
            } catch let error as PostgreSQLError where error.isRetryable && attempt < attempts {
                attempt += 1
                // A short, growing, jittered pause so the rivals do not collide again in step.
                usleep(UInt32.random(in: 1_000...(10_000 * UInt32(attempt))))
            }
        }
    }

    // MARK: Private

    /// Runs one statement with its parameters bound: text format, except blobs (binary, so bytes
    /// travel as they are). Text holding NUL cannot reach PostgreSQL and is refused here, before
    /// libpq would silently cut it at the NUL.
    private func run(_ sql: String, _ parameters: [SQLValue]) throws -> PostgreSQLResult {
        var values: [UnsafeMutableRawPointer?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        defer { values.forEach { free($0) } }
        for (offset, parameter) in parameters.enumerated() {
            switch parameter {
            case .null:
                values.append(nil); lengths.append(0); formats.append(0)
            case .integer(let integer):
                values.append(Self.copy(String(integer))); lengths.append(0); formats.append(0)
            case .real(let real):
                values.append(Self.copy(Self.text(real))); lengths.append(0); formats.append(0)
            case .text(let text):
                guard !text.utf8.contains(0) else {
                    throw PostgreSQLError(sqlState: PostgreSQLError.characterNotInRepertoire,
                                          message: "parameter $\(offset + 1) holds a NUL character, which PostgreSQL text cannot store",
                                          sql: sql)
                }
                values.append(Self.copy(text)); lengths.append(0); formats.append(0)
            case .blob(let bytes):
                let buffer = malloc(max(bytes.count, 1))
                bytes.withUnsafeBytes { raw in
                    if let base = raw.baseAddress, let buffer { buffer.copyMemory(from: base, byteCount: raw.count) }
                }
                values.append(buffer); lengths.append(Int32(bytes.count)); formats.append(1)
            }
        }
        let pointers = values.map { $0.map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) } }
        let name = try preparedName(sql, count: parameters.count)
        let result = pointers.withUnsafeBufferPointer { pointers in
            lengths.withUnsafeBufferPointer { lengths in
                formats.withUnsafeBufferPointer { formats in
                    if let name {
                        return pq.execPrepared(handle, name, Int32(parameters.count), pointers.baseAddress,
                                               lengths.baseAddress, formats.baseAddress, 0)
                    }
                    return pq.execParams(handle, sql, Int32(parameters.count), nil, pointers.baseAddress,
                                         lengths.baseAddress, formats.baseAddress, 0)
                }
            }
        }
        guard let result else { throw connectionError(sql: sql) }
        let wrapped = PostgreSQLResult(pq: pq, handle: result)
        try check(wrapped, sql: sql)
        return wrapped
    }

    /// The server-side name of `sql` when it is prepared: from its second run on, while fewer than
    /// ``preparedLimit`` are. Preparing fails like running would (a syntax error), with that error.
    private func preparedName(_ sql: String, count: Int) throws -> String? {
        if let name = preparedNames[sql] { return name }
        guard preparedNames.count < Self.preparedLimit else { return nil }
        let seen = runs[sql, default: 0] + 1
        guard seen >= 2 else {
            runs[sql] = seen
            return nil
        }
        runs[sql] = nil
        let name = "catalog_\(preparedNames.count + 1)"
        guard let result = pq.prepare(handle, name, sql, Int32(count), nil) else { throw connectionError(sql: sql) }
        try check(PostgreSQLResult(pq: pq, handle: result), sql: sql)
        preparedNames[sql] = name
        return name
    }

    private func check(_ result: PostgreSQLResult, sql: String) throws {
        switch result.status {
        case LibPQ.commandOK, LibPQ.tuplesOK, LibPQ.emptyQuery:
            return
        default:
            var error = result.error(sql: sql)
            if error.sqlState == PostgreSQLError.internalError, pq.status(handle) != LibPQ.connectionOK {
                error.sqlState = PostgreSQLError.connectionLost
            }
            throw error
        }
    }

    /// libpq returned no result at all: out of memory or the connection is gone.
    private func connectionError(sql: String?) -> PostgreSQLError {
        let reason = pq.errorMessage(handle).map { String(cString: $0) }?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return PostgreSQLError(sqlState: PostgreSQLError.connectionLost,
                               message: reason.isEmpty ? "no result from \(displayName)" : reason, sql: sql)
    }

    /// A C string copy owned by the caller (freed with `free`).
    private static func copy(_ text: String) -> UnsafeMutableRawPointer? {
        UnsafeMutableRawPointer(strdup(text))
    }

    /// A double as PostgreSQL's `float8` input reads it back exactly.
    private static func text(_ real: Double) -> String {
        if real.isNaN { return "NaN" }
        if real.isInfinite { return real > 0 ? "Infinity" : "-Infinity" }
        return "\(real)"
    }
}
