import Foundation

/// PostgreSQL's side of migrating: every pending migration in ONE transaction (its DDL is
/// transactional, so a failure leaves the database as it was). Several hosts may start at once
/// against a new database: a transaction-scoped advisory lock makes them migrate one after another,
/// and each reads the version again under it. Everything lives in the connection's current schema
/// (the first of its `search_path`).
extension PostgreSQLConnection: MigrationTarget {
    package static var bundledMigrations: [Migration] { Migration.postgreSQL }
    package var migrationName: String { displayName }

    /// The advisory lock key migrators take (like the ingest keys, a hash of a name no host can have).
    static let migrationLockKey = PostgreSQLConnection.ingestLockKey(host: "\u{0}catalog migrate")

    package func migrationRow(_ sql: String, _ parameters: [SQLValue]) throws -> Row? {
        try queryFirst(SQLDialect.numberedPlaceholders(sql), parameters)
    }

    package func migrationRows(_ sql: String) throws -> [Row] {
        try query(SQLDialect.numberedPlaceholders(sql))
    }

    package func migrationExecute(_ sql: String, _ parameters: [SQLValue]) throws {
        _ = try execute(SQLDialect.numberedPlaceholders(sql), parameters)
    }

    package func hasMigrationsTable() throws -> Bool {
        try queryFirst("""
            SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = 'schema_migrations'
            """) != nil
    }

    package func checkEmpty() throws {
        let tables = try queryFirst("SELECT count(*) AS n FROM pg_catalog.pg_tables WHERE schemaname = current_schema()")?
            .int("n") ?? 0
        if tables > 0 {
            let schema = try queryFirst("SELECT current_schema() AS name")?.string("name") ?? "?"
            throw StoreError.notAPostgreSQLCatalogue(database: displayName, schema: schema)
        }
    }

    package func createMigrationsTable() throws {
        _ = try execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                id integer PRIMARY KEY,
                name text COLLATE "C" NOT NULL,
                applied_at text COLLATE "C" NOT NULL
            )
            """)
    }

    /// PostgreSQL checks foreign keys as each statement runs.
    package func checkAfterMigration(_ migration: Migration) throws {}

    package func applyPending(_ migrator: SchemaMigrator<PostgreSQLConnection>, now: Date) throws -> [Int] {
        try transaction {
            _ = try execute("SELECT pg_advisory_xact_lock($1::bigint)", [.integer(Self.migrationLockKey)])
            // Another host may have migrated while this one waited: read again under the lock.
            try migrator.checkCompatible(self)
            var applied: [Int] = []
            for migration in migrator.migrations where try migrator.apply(migration, to: self, now: now) {
                applied.append(migration.id)
            }
            return applied
        }
    }
}
