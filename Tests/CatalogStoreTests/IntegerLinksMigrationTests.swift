import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// Migration 0014_integer_links (issue 15): entitlements and certificate links name their profile by
/// row id. Every link survives, now under the id of the profile it named; deleting a profile still
/// deletes its links; the two redundant profile indexes are gone and a lookup by team still searches
/// an index. On SQLite and, with a test server, on PostgreSQL.
@Suite(.timeLimit(.minutes(10))) struct IntegerLinksMigrationTests {
    private static let now = "2026-12-01T10:00:00Z"
    /// Each link as (profile UUID, key or certificate, value), whichever way the profile is named.
    private static let expectedLinks = [
        "entitlement P-1 aps-environment \"production\"",
        "entitlement P-1 get-task-allow false",
        "entitlement P-2 get-task-allow true",
        "profile_certificate P-1 AAAA",
        "profile_certificate P-1 BBBB",
        "profile_certificate P-2 BBBB",
    ]
    private static let linksByUUID = """
        SELECT 'entitlement ' || p.uuid || ' ' || e.key || ' ' || e.value_json AS line
        FROM entitlements e JOIN profiles p ON p.id = e.profile_id
        UNION ALL
        SELECT 'profile_certificate ' || p.uuid || ' ' || pc.certificate_sha1
        FROM profile_certificates pc JOIN profiles p ON p.id = pc.profile_id
        ORDER BY 1
        """

    /// The rows a 0013 catalogue holds: P-1 (id 7, from the shared helper) and P-2 (id 9), two
    /// certificates, entitlements of each, links named by UUID. `$1` is `now`.
    private static let oldRows = """
        INSERT INTO certificates (sha1, sha256, serial, not_before, not_after, first_seen)
        VALUES ('AAAA', 'A256', '01', $1, $1, $1), ('BBBB', 'B256', '02', $1, $1, $1);
        INSERT INTO entitlements (profile_uuid, key, value_json)
        VALUES ('P-1', 'get-task-allow', 'false'), ('P-1', 'aps-environment', '"production"'),
               ('P-2', 'get-task-allow', 'true');
        INSERT INTO profile_certificates (profile_uuid, certificate_sha1)
        VALUES ('P-1', 'AAAA'), ('P-1', 'BBBB'), ('P-2', 'BBBB');
        """

    /// The first column of each row of `sql`, as text.
    private func column(_ connection: Connection, _ sql: String) throws -> [String] {
        try connection.query(sql).map { row in
            switch row.values.first {
            case .integer(let value)?: String(value)
            case .text(let value)?: value
            default: "?"
            }
        }
    }

    @Test func sqliteLinksSurviveUnderTheProfilesIds() throws {
        let directory = try Scratch()
        let path = directory.file("catalogue.sqlite")
        do {
            let old = try catalogue(before: "integer_links", at: path, now: Self.now)
            try old.execute("""
                INSERT INTO profiles (id, uuid, name, kind, creation_date, expiration_date, effective_expiration_date,
                                      expiry_cause, sha256, raw_plist, first_seen, last_seen, team_id)
                VALUES (9, 'P-2', 'Other', 'development', ?1, ?1, ?1, 'profile', 'CD', x'00', ?1, ?1, 'TEAM')
                """, [.text(Self.now)])
            try old.executeScript(Self.oldRows.replacingOccurrences(of: "$1", with: "'\(Self.now)'"))
        }
        let connection = try Connection.openCatalogue(path: path)
        #expect(try connection.queryFirst("PRAGMA foreign_key_check") == nil)
        #expect(try column(connection, Self.linksByUUID) == Self.expectedLinks)
        #expect(try column(connection, "SELECT DISTINCT profile_id FROM entitlements ORDER BY 1") == ["7", "9"])
        for table in ["entitlements", "profile_certificates"] {
            let references = try column(connection, "SELECT \"from\" || ' → ' || \"table\" || '.' || \"to\" FROM pragma_foreign_key_list('\(table)') ORDER BY 1")
            #expect(references.contains("profile_id → profiles.id"), "\(table): \(references)")
            #expect(try column(connection, "SELECT name FROM pragma_table_info('\(table)') WHERE name = 'profile_uuid'").isEmpty)
        }
        let indexes = try column(connection, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'profiles'")
        #expect(!indexes.contains("profiles_team_id") && !indexes.contains("profiles_expiration_date"), "\(indexes)")
        let plan = try connection.query("EXPLAIN QUERY PLAN SELECT uuid FROM profiles WHERE team_id = 'TEAM'")
            .compactMap { $0.string("detail") }
        #expect(plan.contains { $0.hasPrefix("SEARCH profiles USING") && $0.contains("INDEX profiles_supersession") }, "\(plan)")

        // Deleting a profile deletes its links, and a link to no profile is refused.
        try connection.execute("DELETE FROM profiles WHERE uuid = 'P-1'")
        #expect(try column(connection, Self.linksByUUID) == Self.expectedLinks.filter { $0.contains("P-2") })
        #expect(throws: SQLiteError.self) {
            try connection.execute("INSERT INTO entitlements (profile_id, key, value_json) VALUES (123, 'k', '1')")
        }
    }

    @Test(.enabled(if: PostgresTestDatabase.enabled, PostgresTestDatabase.skipReason))
    func postgreSQLLinksSurviveUnderTheProfilesIds() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let connection = try database.connect()
        let migration = try #require(Migration.postgreSQL.firstIndex { $0.name == "integer_links" })
        try PostgreSQLMigrator(migrations: Array(Migration.postgreSQL.prefix(migration))).migrate(connection)
        try connection.execute("""
            INSERT INTO profiles (id, uuid, name, kind, creation_date, expiration_date, effective_expiration_date,
                                  expiry_cause, sha256, raw_plist, first_seen, last_seen)
            VALUES (7, 'P-1', 'Profile', 'development', $1, $1, $1, 'profile', 'AB', '\\x00', $1, $1),
                   (9, 'P-2', 'Other', 'development', $1, $1, $1, 'profile', 'CD', '\\x00', $1, $1)
            """, [.text(Self.now)])
        for statement in Self.oldRows.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        where !statement.isEmpty {
            try connection.execute(statement, statement.contains("$1") ? [.text(Self.now)] : [])
        }
        #expect(try PostgreSQLMigrator().migrate(connection).contains(Migration.postgreSQL[migration].id))
        #expect(try connection.query(Self.linksByUUID).compactMap { $0.string("line") } == Self.expectedLinks)
        try connection.execute("DELETE FROM profiles WHERE uuid = 'P-1'")
        #expect(try connection.query(Self.linksByUUID).compactMap { $0.string("line") }
                == Self.expectedLinks.filter { $0.contains("P-2") })
        #expect(throws: PostgreSQLError.self) {
            try connection.execute("INSERT INTO entitlements (profile_id, key, value_json) VALUES (123, 'k', '1')")
        }
    }
}
