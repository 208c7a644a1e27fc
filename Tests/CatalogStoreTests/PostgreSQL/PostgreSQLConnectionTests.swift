import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// The PostgreSQL connection against a real server (``PostgresTestServer``).
@Suite(.timeLimit(.minutes(10)), .enabled(if: PostgresTestDatabase.enabled, PostgresTestDatabase.skipReason))
struct PostgreSQLConnectionTests {
    // MARK: Connecting

    @Test func connectsAndReportsTheServerVersion() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let connection = try database.connect()
        #expect(connection.serverVersion >= 110_000)
        #expect(try connection.queryFirst("SELECT current_database() AS name")?.string("name") == database.name)
        #expect(!connection.isInTransaction)
    }

    /// A query whose client has gone stops on the server within seconds (PostgreSQL 14 and later).
    @Test func theServerChecksTheClientIsStillThere() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let connection = try database.connect()
        let interval = try connection.queryFirst("SELECT current_setting('client_connection_check_interval', true) AS v")?.string("v")
        #expect(connection.serverVersion < 140_000 ? interval == nil : interval == "5s")
    }

    // MARK: Prepared statements

    /// A statement run again is prepared on the server and gives the same rows; a statement that
    /// fails to prepare fails as running it would.
    @Test func aStatementRunTwiceIsPreparedAndAnswersTheSame() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let connection = try database.connect()
        for value in 1...4 {
            #expect(try connection.queryFirst("SELECT $1::int + 1 AS n", [.integer(Int64(value))])?.int("n") == value + 1)
        }
        #expect(try connection.queryFirst("SELECT count(*) AS n FROM pg_prepared_statements")?.int("n") == 1)
        for _ in 0..<2 {
            #expect(throws: PostgreSQLError.self) { try connection.execute("SELECT * FROM no_such_table") }
        }
    }

    @Test func aFailedConnectionIsAConnectionFailureWithoutThePassword() throws {
        let secret = "t0p%40s3cret"
        let url = "postgresql://catalog_admin:\(secret)@/nowhere?host=/nonexistent-catalog-socket-folder"
        do {
            _ = try PostgreSQLConnection(url)
            Issue.record("connected to a socket that does not exist")
        } catch let error as PostgreSQLError {
            #expect(error.condition == .connectionFailure)
            #expect(error.sqlState == "08001")
            #expect(error.message.contains("postgresql://catalog_admin:***@/nowhere"))
            #expect(!error.description.contains("t0p"))
            #expect(!error.description.contains("s3cret"))
        }
    }

    @Test(arguments: [
        // libpq quotes a malformed percent-escape — here inside the password — in its own error.
        "postgresql://catalog_admin:b%zzad-s3cret@/nowhere?host=/nonexistent-catalog-socket-folder",
        "host=/nonexistent-catalog-socket-folder dbname=nowhere password='s3cret word'",
        "postgresql:///nowhere?host=/nonexistent-catalog-socket-folder&password=s3cret",
    ])
    func noConnectionErrorShowsThePassword(connectionString: String) throws {
        let error = try #require(throws: PostgreSQLError.self) { try PostgreSQLConnection(connectionString) }
        #expect(error.condition == .connectionFailure)
        #expect(!error.description.contains("s3cret"), "\(error)")
        #expect(error.description.contains("***"))
    }

    @Test func aServerThatNeverAnswersTimesOut() throws {
        let listener = try SilentListener()
        // The string's own connect_timeout wins over the default.
        var started = Date()
        let quick = try #require(throws: PostgreSQLError.self) {
            try PostgreSQLConnection("postgresql://nobody@127.0.0.1:\(listener.port)/x?connect_timeout=2")
        }
        #expect(quick.condition == .connectionFailure)
        // libpq 15 (Debian 12's) sets its deadline in whole seconds of `time()`, so a 2 s timeout
        // ends 1 to 2 s after the call, depending on where in its second the call began (1.008 s
        // seen here): the lower bound 1.5 failed about every other run.
        #expect((0.9..<8).contains(Date().timeIntervalSince(started)), "\(quick)")
        // Without one, the default (libpq's own would wait forever).
        started = Date()
        let error = try #require(throws: PostgreSQLError.self) {
            try PostgreSQLConnection("postgresql://nobody@127.0.0.1:\(listener.port)/x")
        }
        #expect(error.condition == .connectionFailure)
        let waited = Date().timeIntervalSince(started)
        #expect(Double(PostgreSQLConnection.defaultConnectTimeoutSeconds) - 1 <= waited
                && waited < Double(PostgreSQLConnection.defaultConnectTimeoutSeconds) + 6, "\(waited) s: \(error)")
    }

    @Test func aSessionTheServerEndsIsAConnectionFailure() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let victim = try database.connect()
        let pid = try #require(try victim.queryFirst("SELECT pg_backend_pid() AS pid")?.int64("pid"))
        let admin = try database.connect()
        #expect(try admin.queryFirst("SELECT pg_terminate_backend($1::int) AS done", [.integer(pid)])?.bool("done") == true)
        let error = try #require(throws: PostgreSQLError.self) { try victim.query("SELECT 1") }
        #expect(error.condition == .connectionFailure, "\(error)")
    }

    // MARK: Parameters

    @Test func boundParametersRoundTrip() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (i bigint, r double precision, s text, b bytea, f boolean)")
        let tricky = #"O'Brien "quoted" \backslash $1 ?; -- not a comment /* nor this */ 小白 🚀"#
        let bytes: [UInt8] = [0, 1, 2, 0x5c, 0x78, 0xff, 0]
        try connection.execute("INSERT INTO t (i, r, s, b, f) VALUES ($1, $2, $3, $4, $5)",
                               [.integer(Int64.min), .real(0.1), .text(tricky), .blob(bytes), .integer(1)])
        try connection.execute("INSERT INTO t (i, r, s, b, f) VALUES ($1, $2, $3, $4, $5)",
                               [.integer(Int64.max), .real(-1e-300), .text(""), .blob([]), .integer(0)])
        try connection.execute("INSERT INTO t (i, r, s, b, f) VALUES ($1, $2, $3, $4, $5)",
                               [.null, .null, .null, .null, .null])
        let rows = try connection.query("SELECT i, r, s, b, f FROM t ORDER BY i NULLS LAST")
        #expect(rows.count == 3)
        #expect(rows[0].values == [.integer(Int64.min), .real(0.1), .text(tricky), .blob(bytes), .integer(1)])
        #expect(rows[1].values == [.integer(Int64.max), .real(-1e-300), .text(""), .blob([]), .integer(0)])
        #expect(rows[2].values == [.null, .null, .null, .null, .null])
        #expect(rows[0].columns == ["i", "r", "s", "b", "f"])
        // The text is matched as a value, never read as SQL.
        #expect(try connection.queryFirst("SELECT count(*) AS n FROM t WHERE s = $1", [.text(tricky)])?.int("n") == 1)
        #expect(try connection.queryFirst("SELECT count(*) AS n FROM t WHERE s IS NOT DISTINCT FROM $1", [.null])?.int("n") == 1)
        // numeric from sum() reads as an integer when whole.
        #expect(try connection.queryFirst("SELECT sum(i / 2) AS total FROM t")?["total"] == .integer(-1))
    }

    @Test func rowsChangedAreCounted() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (k text PRIMARY KEY)")
        #expect(try connection.execute("INSERT INTO t VALUES ($1), ($2), ($3)", ["a", "b", "c"]) == 3)
        #expect(try connection.execute("UPDATE t SET k = k || 'x' WHERE k <> $1", ["a"]) == 2)
        #expect(try connection.execute("DELETE FROM t") == 3)
    }

    @Test func textWithNULIsRefusedNotCut() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let connection = try database.connect()
        #expect {
            try connection.queryFirst("SELECT $1::text", [.text("a\u{0}b")])
        } throws: { error in
            (error as? PostgreSQLError)?.sqlState == "22021"
        }
    }

    // MARK: Errors by SQLSTATE

    @Test func constraintViolationsAreTyped() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let connection = try database.connect()
        try connection.executeScript("""
            CREATE TABLE parent (id bigint PRIMARY KEY);
            CREATE TABLE child (parent_id bigint REFERENCES parent (id));
            INSERT INTO parent VALUES (1);
            """)
        let unique = try #require(throws: PostgreSQLError.self) {
            try connection.execute("INSERT INTO parent VALUES ($1)", [.integer(1)])
        }
        #expect(unique.condition == .uniqueViolation)
        #expect(unique.sqlState == "23505")
        #expect(unique.description.hasPrefix("PostgreSQL error 23505: duplicate key value violates unique constraint"))
        #expect(unique.description.hasSuffix("- while executing `INSERT INTO parent VALUES ($1)`"))
        let foreignKey = try #require(throws: PostgreSQLError.self) {
            try connection.execute("INSERT INTO child VALUES ($1)", [.integer(2)])
        }
        #expect(foreignKey.condition == .foreignKeyViolation)
        let syntax = try #require(throws: PostgreSQLError.self) { try connection.execute("SELEKT 1") }
        #expect(syntax.sqlState == "42601")
        #expect(syntax.condition == .other)
    }

    @Test func aWriteByARoleWithoutTheRightIsInsufficientPrivilege() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let admin = try database.connect()
        let role = database.name + "_reader"
        try admin.executeScript("""
            CREATE TABLE t (k text);
            CREATE ROLE \(role) LOGIN;
            GRANT SELECT ON t TO \(role);
            """)
        defer { _ = try? admin.executeScript("DROP OWNED BY \(role); DROP ROLE \(role)") }
        let reader = try PostgreSQLConnection(database.url(asUser: role))
        #expect(try reader.query("SELECT k FROM t").isEmpty)
        let error = try #require(throws: PostgreSQLError.self) {
            try reader.execute("INSERT INTO t VALUES ($1)", ["x"])
        }
        #expect(error.condition == .insufficientPrivilege)
        #expect(error.sqlState == "42501")
    }

    @Test func aLostRaceIsASerializationFailure() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let first = try database.connect()
        let second = try database.connect()
        try first.executeScript("CREATE TABLE t (k int PRIMARY KEY, v int); INSERT INTO t VALUES (1, 0);")
        let error = try #require(throws: PostgreSQLError.self) {
            try first.transaction(.repeatableRead) {
                _ = try first.query("SELECT v FROM t")                  // the snapshot is taken here
                try second.execute("UPDATE t SET v = 1 WHERE k = 1")    // another session commits
                try first.execute("UPDATE t SET v = 2 WHERE k = 1")
            }
        }
        #expect(error.condition == .serializationFailure)
        #expect(error.isRetryable)
        #expect(!first.isInTransaction, "the failed transaction was rolled back")
        #expect(try first.queryFirst("SELECT v FROM t")?.int("v") == 1)
    }

    @Test func aRetriedTransactionRunsAgainAfterASerializationFailure() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let first = try database.connect()
        let second = try database.connect()
        try first.executeScript("CREATE TABLE t (k int PRIMARY KEY, v int); INSERT INTO t VALUES (1, 0);")
        var attempts = 0
        try first.retryingTransaction(.repeatableRead) {
            attempts += 1
            let value = try first.queryFirst("SELECT v FROM t")?.int("v") ?? -1
            if attempts == 1 { try second.execute("UPDATE t SET v = 10 WHERE k = 1") }
            try first.execute("UPDATE t SET v = $1 WHERE k = 1", [.integer(Int64(value + 1))])
        }
        #expect(attempts == 2)
        #expect(try first.queryFirst("SELECT v FROM t")?.int("v") == 11, "no lost update: the retry read 10")
        // Other errors are not retried.
        attempts = 0
        #expect(throws: PostgreSQLError.self) {
            try first.retryingTransaction {
                attempts += 1
                try first.execute("INSERT INTO t VALUES (1, 0)")
            }
        }
        #expect(attempts == 1)
    }

    @Test func aDeadlockIsReportedAsOne() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let setup = try database.connect()
        try setup.executeScript("CREATE TABLE t (k int PRIMARY KEY, v int); INSERT INTO t VALUES (1, 0), (2, 0);")
        let url = database.url
        let errors = Outcomes()
        let first = try database.connect()
        let ready = DispatchSemaphore(value: 0)
        let other = Thread {
            do {
                let second = try PostgreSQLConnection(url)
                try second.transaction {
                    try second.execute("UPDATE t SET v = 2 WHERE k = 2")
                    ready.signal()
                    Thread.sleep(forTimeInterval: 0.3)
                    try second.execute("UPDATE t SET v = 2 WHERE k = 1")
                }
            } catch {
                errors.append(error)
            }
            errors.finish()
        }
        do {
            try first.transaction {
                try first.execute("UPDATE t SET v = 1 WHERE k = 1")
                other.start()
                ready.wait()
                try first.execute("UPDATE t SET v = 1 WHERE k = 2")
            }
        } catch {
            errors.append(error)
        }
        errors.waitForFinish()
        let conditions = errors.all.compactMap { ($0 as? PostgreSQLError)?.condition }
        #expect(conditions == [.deadlock], "exactly one of the two transactions is chosen as the victim: \(errors.all)")
    }

    // MARK: Transactions

    @Test func transactionsCommitOrRollBackAndNestAsSavepoints() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (k text)")
        _ = try connection.transaction { try connection.execute("INSERT INTO t VALUES ('kept')") }
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO t VALUES ('lost')")
                throw Stop()
            }
        }
        try connection.transaction(.serializable) {
            try connection.execute("INSERT INTO t VALUES ('outer')")
            #expect(throws: Stop.self) {
                try connection.transaction {
                    try connection.execute("INSERT INTO t VALUES ('inner')")
                    throw Stop()
                }
            }
            #expect(connection.isInTransaction)
        }
        #expect(try connection.query("SELECT k FROM t ORDER BY k").compactMap { $0.string("k") } == ["kept", "outer"])
    }
}

/// Errors collected from several threads, and a signal when the other thread is done.
final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [any Error] = []
    private let done = DispatchSemaphore(value: 0)

    func append(_ error: any Error) {
        lock.lock()
        errors.append(error)
        lock.unlock()
    }

    var all: [any Error] {
        lock.lock()
        defer { lock.unlock() }
        return errors
    }

    func finish() { done.signal() }
    func waitForFinish() { done.wait() }
}

/// A TCP socket on 127.0.0.1 that listens but never accepts or answers: the kernel completes the
/// handshake, then a client waits for the server's first word forever.
final class SilentListener {
    let descriptor: Int32
    let port: UInt16

    init() throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && listen(descriptor, 8) == 0
                    && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard descriptor >= 0, bound else {
            if descriptor >= 0 { close(descriptor) }
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.descriptor = descriptor
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit {
        close(descriptor)
    }
}
