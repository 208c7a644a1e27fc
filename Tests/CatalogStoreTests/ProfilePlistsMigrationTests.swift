import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// Migration 0015_profile_plists (issue 15): each profile's stored plist moves to `profile_plists`
/// under the profile's id, byte for byte; `profiles` no longer has the column; `rawPlist(uuid:)`
/// reads it back; deleting a profile deletes its plist, and a plist of no profile is refused. On
/// SQLite and, with a test server, on PostgreSQL.
@Suite struct ProfilePlistsMigrationTests {
    private static let now = "2026-12-01T10:00:00Z"
    /// The plist of P-2: a plist itself (not compact), as a catalogue before 0010 stored it.
    private static let plist = Array("<?xml version=\"1.0\"?><plist><dict/></plist>".utf8)
    private static let plistsByUUID = """
        SELECT p.uuid AS uuid, hex(pp.raw_plist) AS stored FROM profile_plists pp JOIN profiles p ON p.id = pp.profile_id
        ORDER BY p.uuid
        """

    @Test func sqlitePlistsMoveUnderTheProfilesIds() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("catalogue.sqlite")
        do {
            let old = try catalogue(before: "profile_plists", at: path, now: Self.now)
            try old.execute("""
                INSERT INTO profiles (id, uuid, name, kind, creation_date, expiration_date, effective_expiration_date,
                                      expiry_cause, sha256, raw_plist, first_seen, last_seen)
                VALUES (9, 'P-2', 'Other', 'development', ?1, ?1, ?1, 'profile', 'CD', ?2, ?1, ?1)
                """, [.text(Self.now), .blob(Self.plist)])
        }
        let connection = try Connection.openCatalogue(path: path)
        #expect(try connection.queryFirst("PRAGMA foreign_key_check") == nil)
        let rows = try connection.query(Self.plistsByUUID).map { "\($0.string("uuid") ?? "?") \($0.string("stored") ?? "?")" }
        #expect(rows == ["P-1 00", "P-2 " + Self.plist.map { String(format: "%02X", $0) }.joined()])
        #expect(try connection.queryFirst("SELECT 1 FROM pragma_table_info('profiles') WHERE name = 'raw_plist'") == nil)
        #expect(try connection.rawPlist(uuid: "p-2") == Self.plist)

        // Deleting a profile deletes its plist, and a plist of no profile is refused.
        try connection.execute("DELETE FROM profiles WHERE uuid = 'P-1'")
        #expect(try connection.query("SELECT profile_id FROM profile_plists").compactMap { $0.int("profile_id") } == [9])
        #expect(throws: SQLiteError.self) {
            try connection.execute("INSERT INTO profile_plists (profile_id, raw_plist) VALUES (123, x'00')")
        }
    }

    @Test(.enabled(if: PostgresTestDatabase.enabled, PostgresTestDatabase.skipReason))
    func postgreSQLPlistsMoveUnderTheProfilesIds() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let connection = try database.connect()
        let migration = try #require(Migration.postgreSQL.firstIndex { $0.name == "profile_plists" })
        try PostgreSQLMigrator(migrations: Array(Migration.postgreSQL.prefix(migration))).migrate(connection)
        try connection.execute("""
            INSERT INTO profiles (id, uuid, name, kind, creation_date, expiration_date, effective_expiration_date,
                                  expiry_cause, sha256, raw_plist, first_seen, last_seen)
            VALUES (7, 'P-1', 'Profile', 'development', $1, $1, $1, 'profile', 'AB', '\\x00', $1, $1),
                   (9, 'P-2', 'Other', 'development', $1, $1, $1, 'profile', 'CD', $2, $1, $1)
            """, [.text(Self.now), .blob(Self.plist)])
        #expect(try PostgreSQLMigrator().migrate(connection).contains(Migration.postgreSQL[migration].id))
        let rows = try connection.query("""
            SELECT p.uuid, pp.raw_plist FROM profile_plists pp JOIN profiles p ON p.id = pp.profile_id ORDER BY p.uuid
            """).map { "\($0.string("uuid") ?? "?") \($0.blob("raw_plist") ?? [])" }
        #expect(rows == ["P-1 \([UInt8(0)])", "P-2 \(Self.plist)"])
        #expect(try connection.queryFirst("""
            SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'profiles'
              AND column_name = 'raw_plist'
            """) == nil)
        try connection.execute("DELETE FROM profiles WHERE uuid = 'P-1'")
        #expect(try connection.query("SELECT profile_id FROM profile_plists").compactMap { $0.int("profile_id") } == [9])
        #expect(throws: PostgreSQLError.self) {
            try connection.execute("INSERT INTO profile_plists (profile_id, raw_plist) VALUES (123, '\\x00')")
        }
    }
}
