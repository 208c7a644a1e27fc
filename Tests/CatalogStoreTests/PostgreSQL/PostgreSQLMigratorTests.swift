import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

@Suite(.timeLimit(.minutes(10)), .enabled(if: PostgresTestDatabase.enabled, PostgresTestDatabase.skipReason))
struct PostgreSQLMigratorTests {
    @Test func appliesEveryMigrationInOneGoAndRecordsThem() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let connection = try database.connect()
        let migrator = try PostgreSQLMigrator()
        #expect(try migrator.currentVersion(of: connection) == 0)
        let outdated = try #require(throws: StoreError.self) { try migrator.checkUpToDate(connection) }
        #expect(outdated == .outdatedSchema(path: connection.displayName, found: 0, known: migrator.latestVersion))
        #expect(try migrator.migrate(connection) == Migration.postgreSQL.map(\.id))
        try migrator.checkUpToDate(connection)
        #expect(try migrator.currentVersion(of: connection) == Migration.all.last?.id)
        let applied = try migrator.appliedMigrations(connection)
        #expect(applied.map(\.name) == Migration.postgreSQL.map(\.name))
        #expect(SQLDate.date(from: applied.first?.appliedAt ?? "") != nil)
        let tables = try connection.query("""
            SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = current_schema() ORDER BY tablename
            """).compactMap { $0.string("tablename") }
        #expect(tables == MigratorTests.tables)
        // Up to date: nothing more to do.
        #expect(try migrator.migrate(connection) == [])
    }

    @Test func refusesANewerSchemaAndLeavesItAlone() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let connection = try database.connect()
        let migrator = try PostgreSQLMigrator()
        try migrator.migrate(connection)
        let newer = migrator.latestVersion + 1
        try connection.execute("INSERT INTO schema_migrations (id, name, applied_at) VALUES ($1, 'from_the_future', $2)",
                               [.integer(Int64(newer)), SQLValue(Date())])
        let error = try #require(throws: StoreError.self) { try migrator.migrate(connection) }
        #expect(error == .newerSchema(path: connection.displayName, found: newer, known: migrator.latestVersion))
        #expect(error.description.contains("was written by a newer catalog"))
        #expect(throws: StoreError.self) { try migrator.checkCompatible(connection) }
        #expect(try migrator.currentVersion(of: connection) == newer)
    }

    @Test func refusesASchemaThatIsNotACatalogue() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let connection = try database.connect()
        try connection.execute("CREATE TABLE invoices (id int)")
        let error = try #require(throws: StoreError.self) { try PostgreSQLMigrator().migrate(connection) }
        #expect(error == .notAPostgreSQLCatalogue(database: connection.displayName, schema: "public"))
        #expect(try connection.queryFirst("SELECT to_regclass('schema_migrations') IS NULL AS absent")?.bool("absent") == true)
    }

    @Test func aFailingMigrationLeavesNothingBehind() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let connection = try database.connect()
        let migrator = try PostgreSQLMigrator(migrations: [
            Migration(id: 1, name: "good", sql: "CREATE TABLE good (id int);"),
            Migration(id: 2, name: "bad", sql: "CREATE TABLE bad (id int); INSERT INTO bad VALUES ('not a number');"),
        ])
        #expect(throws: PostgreSQLError.self) { try migrator.migrate(connection) }
        #expect(!connection.isInTransaction)
        let tables = try connection.query("SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = 'public'")
        #expect(tables.isEmpty, "one transaction: the good migration and schema_migrations were rolled back too")
    }

    @Test func hostsMigratingAtOnceApplyEachMigrationOnce() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let url = database.url
        let outcomes = Outcomes()
        let group = DispatchGroup()
        let appliedCounts = Outcomes()
        for _ in 0..<6 {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    let applied = try PostgreSQLMigrator().migrate(PostgreSQLConnection(url))
                    if !applied.isEmpty { appliedCounts.append(CancellationError()) }
                } catch {
                    outcomes.append(error)
                }
            }.start()
        }
        group.wait()
        #expect(outcomes.all.isEmpty, "\(outcomes.all)")
        #expect(appliedCounts.all.count == 1, "exactly one migrator applied the schema")
        let connection = try database.connect()
        #expect(try PostgreSQLMigrator().appliedMigrations(connection).count == Migration.postgreSQL.count)
    }
}
