import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// The README's database and roles, run as written (with names made unique for the test): the
/// ingest role creates the schema and writes; the lookup role reads every table and writes nothing.
@Suite(.timeLimit(.minutes(10)), .enabled(if: PostgresTestDatabase.enabled, PostgresTestDatabase.skipReason))
struct PostgreSQLRolesTests {
    /// The README's ```sql block under its "### PostgreSQL" section, split at its `\connect` line.
    static func readmeStatements() throws -> (server: [String], database: [String]) {
        let readme = try String(contentsOfFile: TestPaths.packageRoot + "/README.md", encoding: .utf8)
        let section = try #require(readme.range(of: "\n### PostgreSQL"))
        let start = try #require(readme.range(of: "```sql\n", range: section.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let lines = readme[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
        let connect = try #require(lines.firstIndex { $0.hasPrefix("\\connect") })
        func statements(_ lines: ArraySlice<String>) -> [String] {
            lines.map { line in line.range(of: "--").map { String(line[..<$0.lowerBound]) } ?? line }
                .joined(separator: "\n").split(separator: ";")
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        }
        return (statements(lines[..<connect]), statements(lines[(connect + 1)...]))
    }

    @Test func theIngestRoleWritesAndTheLookupRoleOnlyReads() throws {
        guard let serverURL = PostgresTestServer.url else {
            throw PostgresTestServerUnavailable(reason: PostgresTestServer.unavailableReason)
        }
        let suffix = UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        let (ingest, lookup, name) = ("ingest_\(suffix)", "lookup_\(suffix)", "catalog_r_\(suffix)")
        func rename(_ statement: String) -> String {
            statement.replacingOccurrences(of: "catalog_ingest", with: ingest)
                .replacingOccurrences(of: "catalog_lookup", with: lookup)
                .replacingOccurrences(of: "DATABASE catalog ", with: "DATABASE \(name) ")
        }
        let (serverStatements, databaseStatements) = try Self.readmeStatements()
        #expect(serverStatements.count == 4 && databaseStatements.count == 4)

        let admin = try PostgreSQLConnection(serverURL)
        defer {
            _ = try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            _ = try? admin.execute("DROP ROLE IF EXISTS \(lookup)")
            _ = try? admin.execute("DROP ROLE IF EXISTS \(ingest)")
        }
        for statement in serverStatements { try admin.execute(rename(statement)) }
        let databaseURL = PostgresTestServer.replacingDatabase(in: serverURL, with: name)
        let owner = try PostgreSQLConnection(databaseURL)
        for statement in databaseStatements { try owner.execute(rename(statement)) }

        // The ingest role: migrates (creates every table) and writes.
        let ingestConnection = try PostgreSQLConnection(PostgresTestServer.replacingUser(in: databaseURL, with: ingest))
        try PostgreSQLMigrator().migrate(ingestConnection)
        try ingestConnection.execute("INSERT INTO devices (udid, first_seen) VALUES ($1, $2)",
                                     ["00008030-TEST", "2026-11-30T00:00:00Z"])

        // The lookup role: reads every table, including the migrator's check, and writes nothing.
        let lookupConnection = try PostgreSQLConnection(PostgresTestServer.replacingUser(in: databaseURL, with: lookup))
        try PostgreSQLMigrator().checkUpToDate(lookupConnection)
        for table in MigratorTests.tables {
            _ = try lookupConnection.query("SELECT * FROM \(table) LIMIT 1")
        }
        #expect(try lookupConnection.queryFirst("SELECT udid FROM devices")?.string("udid") == "00008030-TEST")
        let writes = [
            "INSERT INTO devices (udid, first_seen) VALUES ('x', 'y')",
            "UPDATE devices SET first_seen = 'z'",
            "DELETE FROM schema_migrations",
            "CREATE TABLE mine (id int)",
        ]
        for write in writes {
            let error = try #require(throws: PostgreSQLError.self, "\(write)") { try lookupConnection.execute(write) }
            #expect([.readOnlyTransaction, .insufficientPrivilege].contains(error.condition), "\(write): \(error)")
        }
        // Without the read-only default the privileges alone still refuse the write.
        try lookupConnection.execute("SET default_transaction_read_only = off")
        let error = try #require(throws: PostgreSQLError.self) {
            try lookupConnection.execute("INSERT INTO devices (udid, first_seen) VALUES ('x', 'y')")
        }
        #expect(error.condition == .insufficientPrivilege)
        let migrate = try #require(throws: PostgreSQLError.self) {
            try lookupConnection.execute("CREATE TABLE mine (id int)")
        }
        #expect(migrate.condition == .insufficientPrivilege)
    }
}
