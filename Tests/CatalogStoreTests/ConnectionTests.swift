import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

@Suite struct ConnectionTests {
    // MARK: Opening

    @Test func createsANewFileReadableOnlyByItsOwner() throws {
        let directory = try Scratch()
        let path = directory.file("new.sqlite")
        let connection = try Connection(path: path)
        try connection.execute("CREATE TABLE t (x)")
        try connection.execute("INSERT INTO t VALUES (1)")
        #expect(try permissions(of: path) == 0o600)
        // SQLite gives the WAL file the database's mode.
        #expect(try permissions(of: path + "-wal") == 0o600)
    }

    @Test func anExistingFileKeepsItsMode() throws {
        let directory = try Scratch()
        let path = directory.file("existing.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644]))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let connection = try Connection(path: path)
        try connection.execute("CREATE TABLE t (x)")
        #expect(try permissions(of: path) == 0o644)
    }

    /// Issue 15: a new file (or one created empty) gets 16 KB pages; a file made with SQLite's 4 KB
    /// keeps them, rows and all, when opened for writing again.
    @Test func aNewFileGets16KBPagesAndAnOldOneKeepsItsOwn() throws {
        let directory = try Scratch()
        let fresh = try Connection(path: directory.file("new.sqlite"))
        try fresh.execute("CREATE TABLE t (x)")
        #expect(try fresh.queryFirst("PRAGMA page_size")?[0] == .integer(Int64(Connection.newFilePageSize)))
        #expect(Connection.newFilePageSize == 16_384)

        let empty = directory.file("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: empty, contents: nil))
        let created = try Connection(path: empty)
        try created.execute("CREATE TABLE t (x)")
        #expect(try created.queryFirst("PRAGMA page_size")?[0] == .integer(16_384))

        let old = directory.file("old.sqlite")
        do {
            let made = try Connection(path: old, wal: false)
            try made.execute("PRAGMA page_size = 4096")
            try made.execute("VACUUM")
            try made.execute("CREATE TABLE t (x)")
            try made.execute("INSERT INTO t VALUES (7)")
            #expect(try made.queryFirst("PRAGMA page_size")?[0] == .integer(4096))
        }
        let reopened = try Connection(path: old)
        #expect(try reopened.queryFirst("PRAGMA page_size")?[0] == .integer(4096))
        #expect(try reopened.queryFirst("SELECT x FROM t")?[0] == .integer(7))
    }

    @Test func walForeignKeysAndBusyTimeoutAreOn() throws {
        let directory = try Scratch()
        let connection = try Connection(path: directory.file("db.sqlite"))
        #expect(try connection.queryFirst("PRAGMA journal_mode")?[0] == .text("wal"))
        #expect(try connection.queryFirst("PRAGMA foreign_keys")?[0] == .integer(1))
        #expect(try connection.queryFirst("PRAGMA busy_timeout")?[0] == .integer(10_000))
    }

    /// Issue 9 §1: an ingest ends by leaving WAL mode so readers need no -shm file. SQLite refuses
    /// while another connection has the file open; the call waits at most the given time, keeps the
    /// data either way, and succeeds once the other connection has gone.
    @Test func leavingWALRemovesTheWALFilesOnceNoOneElseHasTheFileOpen() throws {
        let directory = try Scratch()
        let path = directory.file("db.sqlite")
        let writer = try Connection(path: path)
        try writer.execute("CREATE TABLE t (x)")
        try writer.execute("INSERT INTO t VALUES (1), (2)")
        #expect(try directory.contents() == ["db.sqlite", "db.sqlite-shm", "db.sqlite-wal"])
        #expect(Connection.headerSaysWAL(path) == true)
        do {
            let other = try Connection(path: path, readOnly: true)
            #expect(try other.queryFirst("SELECT count(*) FROM t")?[0] == .integer(2))
            let started = Date()
            #expect(try writer.leaveWAL(waitingUpTo: 0.3) == false)
            let waited = Date().timeIntervalSince(started)
            #expect(waited >= 0.3 && waited < 5, "waited \(waited) s")
            #expect(try writer.queryFirst("PRAGMA journal_mode")?[0] == .text("wal"))
            #expect(try other.queryFirst("SELECT count(*) FROM t")?[0] == .integer(2))
        }
        #expect(try writer.leaveWAL(waitingUpTo: 0.3))
        #expect(try directory.contents() == ["db.sqlite"])
        #expect(Connection.headerSaysWAL(path) == false)
        #expect(try writer.queryFirst("PRAGMA busy_timeout")?[0] == .integer(10_000), "the busy timeout is restored")
        #expect(try Connection(path: path, readOnly: true).queryFirst("SELECT count(*) FROM t")?[0] == .integer(2))
        #expect(try directory.contents() == ["db.sqlite"], "a read-only reader created no file")
    }

    @Test func readOnlyConnectionsCannotWriteOrCreate() throws {
        let directory = try Scratch()
        let path = directory.file("db.sqlite")
        try Connection(path: path).execute("CREATE TABLE t (x)")
        let reader = try Connection(path: path, readOnly: true)
        let error = try #require(throws: SQLiteError.self) { try reader.execute("INSERT INTO t VALUES (1)") }
        #expect(error.primaryCode == SQLiteError.readOnly)
        #expect(throws: StoreError.self) { try Connection(path: directory.file("missing.sqlite"), readOnly: true) }
        #expect(try directory.contents().contains("missing.sqlite") == false)
    }

    @Test func aMissingFolderIsAClearError() throws {
        let directory = try Scratch()
        let path = directory.file("no/such/folder/db.sqlite")
        let error = try #require(throws: StoreError.self) { try Connection(path: path) }
        guard case .cannotOpen(let errorPath, _) = error else {
            Issue.record("expected cannotOpen, got \(error)")
            return
        }
        #expect(errorPath == path)
        #expect(error.description.hasPrefix("cannot open catalogue \(path): "))
    }

    // MARK: Values

    @Test func boundParametersRoundTripHostileValuesByteForByte() throws {
        let directory = try Scratch()
        let connection = try Connection(path: directory.file("db.sqlite"))
        try connection.execute("CREATE TABLE profiles (s TEXT, b BLOB)")
        let strings = [
            "'); DROP TABLE profiles; --",
            "\"quoted\" `back` [bracket] ? :name @name $name",
            "tab\tnewline\ncr\rbell\u{07}escape\u{1B}delete\u{7F}",
            "emoji 👩🏽‍💻🚀 and combining e\u{301} and RTL \u{202E}",
            "",
            "embedded\u{0}nul",
        ]
        let blobs: [[UInt8]] = [[], [0, 0, 0], Array(0...255)]
        for string in strings {
            try connection.execute("INSERT INTO profiles (s, b) VALUES (?, ?)", [.text(string), .blob(Array(string.utf8))])
        }
        for blob in blobs {
            try connection.execute("INSERT INTO profiles (s, b) VALUES (:s, :b)", ["s": .null, "b": .blob(blob)])
        }
        let rows = try connection.query("SELECT s, b FROM profiles ORDER BY rowid")
        #expect(rows.count == strings.count + blobs.count)
        for (row, string) in zip(rows, strings) {
            #expect(row.string("s") == string)
            #expect(row.string("s").map { Array($0.utf8) } == Array(string.utf8))
            #expect(row["b"] == .blob(Array(string.utf8)))
        }
        for (row, blob) in zip(rows.dropFirst(strings.count), blobs) {
            #expect(row["b"] == .blob(blob))
        }
        // The hostile text was data, not SQL: the table is still there.
        #expect(try connection.queryFirst("SELECT count(*) FROM sqlite_master WHERE name = 'profiles'")?[0] == .integer(1))
        #expect(try connection.queryFirst("SELECT count(*) FROM profiles WHERE s = ?", [.text(strings[0])])?[0] == .integer(1))
    }

    /// A prepared statement copies its text and blob parameters into one buffer and binds them in
    /// place: run after run, with values growing past the buffer and shrinking again, mixed with
    /// NULLs and integers and read by a JSON function, each row holds what its run was given.
    @Test func aPreparedStatementBindsEachRunsOwnValues() throws {
        let directory = try Scratch()
        let connection = try Connection(path: directory.file("db.sqlite"))
        try connection.execute("CREATE TABLE t (n INTEGER, s TEXT, b BLOB, j INTEGER)")
        let insert = try connection.prepareWrite(
            "INSERT INTO t (n, s, b, j) VALUES (?, ?, ?, (SELECT count(*) FROM json_each(?)))")
        var expected: [(String?, [UInt8], Int)] = []
        for run in 0..<40 {
            let length = [0, 1, 300, 5_000, 3, 70_000, 12][run % 7] + run
            let text: String? = run % 5 == 4 ? nil : String(repeating: "é\(run % 10)", count: length / 3) + "\u{0}end"
            let blob = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ run) }
            let items = run % 9
            let json = "[" + (0..<items).map(String.init).joined(separator: ",") + "]"
            try insert.run([.integer(Int64(run)), text.map(SQLValue.text) ?? .null, .blob(blob), .text(json)])
            expected.append((text, blob, items))
        }
        let rows = try connection.query("SELECT s, b, j FROM t ORDER BY n")
        #expect(rows.count == expected.count)
        for (row, (text, blob, items)) in zip(rows, expected) {
            #expect(row.string("s") == text)
            #expect(row["b"] == .blob(blob))
            #expect(row.int("j") == items)
        }
    }

    @Test func numbersAndDatesRoundTrip() throws {
        let directory = try Scratch()
        let connection = try Connection(path: directory.file("db.sqlite"))
        let date = Date(timeIntervalSince1970: 1_796_032_800)  // 2026-11-30T10:00:00Z
        let row = try #require(try connection.queryFirst(
            "SELECT ? AS big, ? AS small, ? AS real, ? AS flag, ? AS date",
            [.integer(.max), .integer(.min), .real(0.1), SQLValue(true), SQLValue(date)]))
        #expect(row.int64("big") == .max)
        #expect(row.int64("small") == .min)
        #expect(row.double("real") == 0.1)
        #expect(row.bool("flag") == true)
        #expect(row.string("date") == "2026-11-30T10:00:00Z")
        #expect(row.date("date") == date)
    }

    @Test func readingNullsAndMissingColumnsGivesNil() throws {
        let directory = try Scratch()
        let connection = try Connection(path: directory.file("db.sqlite"))
        let row = try #require(try connection.queryFirst("SELECT NULL AS n, 'text' AS t"))
        #expect(row["n"] == .null)
        #expect(row.int64("n") == nil)
        #expect(row.string("n") == nil)
        #expect(row.blob("n") == nil)
        #expect(row.date("n") == nil)
        #expect(row.bool("n") == nil)
        #expect(row.int64("t") == nil)   // wrong storage class
        #expect(row.date("t") == nil)    // not a date
        #expect(row["absent"] == .null)
        #expect(row[99] == .null)
        #expect(row[-1] == .null)

        let statement = try connection.prepare("SELECT NULL")
        #expect(try statement.step())
        #expect(statement.int64(at: 0) == nil)
        #expect(statement.string(at: 0) == nil)
        #expect(statement.blob(at: 0) == nil)
        #expect(statement.string(at: 5) == nil)
    }

    // MARK: Errors

    @Test func errorsCarryTheExtendedCodeMessageAndSQL() throws {
        let directory = try Scratch()
        let connection = try Connection(path: directory.file("db.sqlite"))
        try connection.execute("CREATE TABLE t (k TEXT UNIQUE)")
        let insert = "INSERT INTO t (k) VALUES (?)"
        try connection.execute(insert, ["a"])
        let error = try #require(throws: SQLiteError.self) { try connection.execute(insert, ["a"]) }
        #expect(error.extendedCode == SQLiteError.constraintUnique)
        #expect(error.primaryCode == SQLiteError.constraint)
        #expect(error.isConstraintViolation)
        #expect(error.message == "UNIQUE constraint failed: t.k")
        #expect(error.sql == insert)
        #expect(error.description
                == "SQLite error 19: UNIQUE constraint failed: t.k - while executing `INSERT INTO t (k) VALUES (?)`")

        let syntax = try #require(throws: SQLiteError.self) { try connection.execute("SELEC 1") }
        #expect(syntax.primaryCode == 1)
        #expect(syntax.sql == "SELEC 1")
        #expect(syntax.message.contains("syntax error"))

        // The failed statement is reset; the connection keeps working.
        try connection.execute(insert, ["b"])
        #expect(try connection.query("SELECT k FROM t").count == 2)
    }

    @Test func wrongParameterCountsAreErrors() throws {
        let directory = try Scratch()
        let connection = try Connection(path: directory.file("db.sqlite"))
        #expect(throws: SQLiteError.self) { try connection.query("SELECT ?, ?", [1]) }
        #expect(throws: SQLiteError.self) { try connection.query("SELECT ?", [1, 2]) }
        #expect(throws: SQLiteError.self) { try connection.query("SELECT :a", ["b": 1]) }
        #expect(throws: SQLiteError.self) { try connection.execute("SELECT 1; SELECT 2") }
        #expect(try connection.query("SELECT :a, @b, $c", ["a": 1, "@b": 2, "$c": 3]).first?.values
                == [.integer(1), .integer(2), .integer(3)])
    }

    @Test func scriptErrorsNameTheFailingStatement() throws {
        let directory = try Scratch()
        let connection = try Connection(path: directory.file("db.sqlite"))
        try connection.executeScript("-- comment\nCREATE TABLE a (x);\n\nCREATE TABLE b (y); -- trailing comment\n")
        let error = try #require(throws: SQLiteError.self) {
            try connection.executeScript("CREATE TABLE c (z);\nINSERT INTO nowhere VALUES (1);\nCREATE TABLE d (w);")
        }
        #expect(error.sql == "INSERT INTO nowhere VALUES (1);")
        #expect(error.message == "no such table: nowhere")
    }

    // MARK: Transactions

    @Test func transactionsCommitOrRollBack() throws {
        struct Failure: Error {}
        let directory = try Scratch()
        let connection = try Connection(path: directory.file("db.sqlite"))
        try connection.execute("CREATE TABLE t (x)")

        #expect(throws: Failure.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO t VALUES (1)")
                throw Failure()
            }
        }
        #expect(!connection.isInTransaction)
        #expect(try connection.query("SELECT x FROM t").isEmpty)

        let value = try connection.transaction(.deferred) {
            try connection.execute("INSERT INTO t VALUES (2)")
            // A nested transaction is a savepoint: only its own work is undone.
            _ = try? connection.transaction {
                try connection.execute("INSERT INTO t VALUES (3)")
                throw Failure()
            }
            #expect(connection.isInTransaction)
            return 42
        }
        #expect(value == 42)
        #expect(try connection.query("SELECT x FROM t").map { $0[0] } == [.integer(2)])
    }

    @Test func aStatementInUseIsNotSharedWithANestedQuery() throws {
        let directory = try Scratch()
        let connection = try Connection(path: directory.file("db.sqlite"))
        try connection.execute("CREATE TABLE t (x)")
        for x in 1...3 { try connection.execute("INSERT INTO t VALUES (?)", [.integer(Int64(x))]) }
        let sql = "SELECT x FROM t WHERE x >= ? ORDER BY x"
        var pairs: [[Int64]] = []
        try connection.forEachRow(sql, [1]) { outer in
            let inner = try connection.query(sql, [.integer(outer.int64("x") ?? 0)])
            pairs.append(inner.compactMap { $0.int64("x") })
        }
        #expect(pairs == [[1, 2, 3], [2, 3], [3]])
    }
}
