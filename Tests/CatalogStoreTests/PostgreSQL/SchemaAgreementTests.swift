import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// Schema N is one model on both engines: each SQLite migration has its PostgreSQL counterpart under
/// the same number (no server needed).
@Suite(.timeLimit(.minutes(10))) struct SchemaVersionTests {
    @Test func bothEnginesReachTheSameSchemaVersion() {
        #expect(Migration.postgreSQL.last?.id == Migration.all.last?.id,
                "each SQLite migration needs its PostgreSQL counterpart under the same number")
    }
}

/// The SQLite schema (Migrations/*.sql) and the PostgreSQL one (Migrations/postgresql/*.sql) are one
/// model: after migrating both, their tables, columns, keys and foreign keys agree.
@Suite(.timeLimit(.minutes(10)), .enabled(if: PostgresTestDatabase.enabled, PostgresTestDatabase.skipReason))
struct SchemaAgreementTests {
    @Test func tablesColumnsKeysAndForeignKeysAgree() throws {
        let directory = try Scratch()
        let sqlite = try SchemaShape(sqlite: Connection.openCatalogue(path: directory.file("catalogue.sqlite")))

        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let connection = try database.connect()
        try PostgreSQLMigrator().migrate(connection)
        let postgreSQL = try SchemaShape(postgreSQL: connection)

        #expect(sqlite.tables.keys.sorted() == MigratorTests.tables)
        #expect(postgreSQL.tables.keys.sorted() == MigratorTests.tables)
        #expect(postgreSQL.tables["builds"]?.columns.count ?? 0 > 25)
        for name in sqlite.tables.keys.sorted() {
            guard let lite = sqlite.tables[name], let server = postgreSQL.tables[name] else { continue }
            #expect(lite.columns.sorted() == server.columns.sorted(), "columns of \(name)")
            #expect(lite.primaryKey == server.primaryKey, "primary key of \(name)")
            #expect(lite.uniques == server.uniques, "unique constraints of \(name)")
            #expect(lite.foreignKeys == server.foreignKeys, "foreign keys of \(name)")
        }
    }

    @Test func theHostDimensionIsInTheKeysOnBothEngines() throws {
        let directory = try Scratch()
        let sqlite = try SchemaShape(sqlite: Connection.openCatalogue(path: directory.file("catalogue.sqlite")))
        #expect(sqlite.tables["profile_locations"]?.uniques.contains(["host", "path"]) == true)
        #expect(sqlite.tables["builds"]?.uniques.contains(["app_path", "host", "path"]) == true)
        #expect(sqlite.tables["files"]?.primaryKey == ["host", "path"])
        #expect(sqlite.tables["ingest_runs"]?.columns.contains(.init(name: "host", family: "text", nullable: false)) == true)
        for shared in ["profiles", "certificates", "devices"] {
            #expect(sqlite.tables[shared]?.columns.contains { $0.name == "host" } == false, "\(shared) is shared by hosts")
        }
    }
}
