import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// Migration 0016_profile_plists (issue 15): each profile's stored plist moves out of its row into
/// profile_plists, under the profile's id. Every value comes across byte for byte (a plist stored
/// as it was, one big enough to spill into overflow pages, a compact one), every other column of
/// the profiles stays as it was, `rawPlist(uuid:)` reads the new table, and a profile deleted takes
/// its plist with it. On SQLite and, with a test server, on PostgreSQL.
@Suite(.timeLimit(.minutes(10))) struct ProfilePlistsMigrationTests {
    private static let now = "2026-12-01T10:00:00Z"

    /// A plain XML plist of about `size` bytes: stored as it is, and given back as it is.
    private static func plist(_ name: String, size: Int) -> [UInt8] {
        let padding = String(repeating: "A", count: max(size - 200, 0))
        return Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>Name</key><string>\(name)</string><key>Pad</key><string>\(padding)</string></dict></plist>
            """.utf8)
    }

    /// Id 7 (P-1, from the shared helper) holds `x'00'`; 9 and 11 hold a small and a 20 KB plist.
    private static let stored: [(id: Int64, uuid: String, plist: [UInt8])] = [
        (7, "P-1", [0]), (9, "P-2", plist("P-2", size: 600)), (11, "P-3", plist("P-3", size: 20_000)),
    ]

    /// The profiles' rows, every column but raw_plist, by id.
    private static let otherColumns = """
        SELECT id, uuid, name, kind, creation_date, expiration_date, effective_expiration_date, expiry_cause,
               sha256, first_seen, last_seen FROM profiles ORDER BY id
        """

    @Test func sqlitePlistsMoveByteForByteAndTheRowsKeepTheRest() throws {
        let directory = try Scratch()
        let path = directory.file("catalogue.sqlite")
        let before: [[SQLValue]]
        do {
            let old = try catalogue(before: "profile_plists", at: path, now: Self.now)
            for (id, uuid, plist) in Self.stored.dropFirst() {
                try old.execute("""
                    INSERT INTO profiles (id, uuid, name, kind, creation_date, expiration_date, effective_expiration_date,
                                          expiry_cause, sha256, raw_plist, first_seen, last_seen)
                    VALUES (?2, ?3, 'Profile', 'development', ?1, ?1, ?1, 'profile', 'CD', ?4, ?1, ?1)
                    """, [.text(Self.now), .integer(id), .text(uuid), .blob(plist)])
            }
            try old.execute("INSERT INTO entitlements (profile_id, key, value_json) VALUES (9, 'get-task-allow', 'true')")
            before = try old.query(Self.otherColumns).map(\.values)
        }
        let connection = try Connection.openCatalogue(path: path)
        #expect(try connection.queryFirst("PRAGMA foreign_key_check") == nil)
        #expect(try connection.queryFirst("PRAGMA integrity_check")?[0] == .text("ok"))
        #expect(try connection.query("SELECT name FROM pragma_table_info('profiles') WHERE name = 'raw_plist'").isEmpty)
        #expect(try connection.query(Self.otherColumns).map(\.values) == before)
        let moved = try connection.query("SELECT profile_id, raw_plist FROM profile_plists ORDER BY profile_id")
        #expect(moved.map { $0.int64("profile_id") } == Self.stored.map(\.id))
        #expect(moved.map { $0.blob("raw_plist") } == Self.stored.map(\.plist))
        for (_, uuid, plist) in Self.stored.dropFirst() {
            #expect(try connection.rawPlist(uuid: uuid.lowercased()) == plist, "\(uuid)")
        }

        try connection.execute("DELETE FROM profiles WHERE id = 9")
        #expect(try connection.query("SELECT profile_id FROM profile_plists ORDER BY profile_id").map { $0.int64("profile_id") }
                == [7, 11])
        #expect(throws: SQLiteError.self) {
            try connection.execute("INSERT INTO profile_plists (profile_id, raw_plist) VALUES (123, x'00')")
        }
    }

    @Test(.enabled(if: PostgresTestDatabase.enabled, PostgresTestDatabase.skipReason))
    func postgreSQLPlistsMoveByteForByte() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let connection = try database.connect()
        let migration = try #require(Migration.postgreSQL.firstIndex { $0.name == "profile_plists" })
        try PostgreSQLMigrator(migrations: Array(Migration.postgreSQL.prefix(migration))).migrate(connection)
        for (id, uuid, plist) in Self.stored {
            try connection.execute("""
                INSERT INTO profiles (id, uuid, name, kind, creation_date, expiration_date, effective_expiration_date,
                                      expiry_cause, sha256, raw_plist, first_seen, last_seen)
                VALUES ($2, $3, 'Profile', 'development', $1, $1, $1, 'profile', 'CD', $4, $1, $1)
                """, [.text(Self.now), .integer(id), .text(uuid), .blob(plist)])
        }
        let before = try connection.query(Self.otherColumns).map(\.values)
        #expect(try PostgreSQLMigrator().migrate(connection).contains(Migration.postgreSQL[migration].id))
        #expect(try connection.query("""
            SELECT column_name FROM information_schema.columns WHERE table_name = 'profiles' AND column_name = 'raw_plist'
            """).isEmpty)
        #expect(try connection.query(Self.otherColumns).map(\.values) == before)
        let moved = try connection.query("SELECT profile_id, raw_plist FROM profile_plists ORDER BY profile_id")
        #expect(moved.map { $0.int64("profile_id") } == Self.stored.map(\.id))
        #expect(moved.map { $0.blob("raw_plist") } == Self.stored.map(\.plist))
        try connection.execute("DELETE FROM profiles WHERE id = 9")
        #expect(try connection.query("SELECT profile_id FROM profile_plists ORDER BY profile_id").map { $0.int64("profile_id") }
                == [7, 11])
    }
}
