import Foundation

/// Brings a PostgreSQL catalogue's schema up to date from ``Migration/postgreSQL``
/// (`Migrations/postgresql/`): every pending migration in ONE transaction (PostgreSQL's DDL is
/// transactional, so a failure leaves the database as it was), recorded in `schema_migrations` —
/// the same table, columns and version numbers as SQLite's, so "schema 8" is one model on both.
///
/// Several hosts may start at once against a new database: a transaction-scoped advisory lock makes
/// them migrate one after another, and each re-reads the version under it. Like ``Migrator`` it
/// refuses — and leaves untouched — a database at a newer schema than this binary knows
/// (``StoreError/newerSchema(path:found:known:)``), and a schema holding tables but no
/// `schema_migrations` (``StoreError/notAPostgreSQLCatalogue(database:schema:)``). Everything
/// lives in the connection's current schema (the first of its `search_path`).
package struct PostgreSQLMigrator: Sendable {
    package let migrations: [Migration]

    /// The advisory lock key migrators take (FNV-1a of "catalog migrate", like the ingest keys).
    static let lockKey = PostgreSQLConnection.ingestLockKey(host: "\u{0}catalog migrate")

    /// `migrations` must have strictly increasing, positive ids.
    package init(migrations: [Migration] = Migration.postgreSQL) throws {
        try Migration.checkOrder(migrations)
        self.migrations = migrations
    }

    /// The newest schema version this binary knows.
    package var latestVersion: Int { migrations.last?.id ?? 0 }

    /// The highest migration id recorded, 0 when there is no `schema_migrations`. Reads only.
    package func currentVersion(of connection: PostgreSQLConnection) throws -> Int {
        guard try hasMigrationsTable(connection) else { return 0 }
        return try connection.queryFirst("SELECT coalesce(max(id), 0) AS version FROM schema_migrations")?
            .int("version") ?? 0
    }

    /// Throws unless this binary may use the database: not newer than this binary, and a catalogue
    /// or empty. Reads only — what a lookup role (SELECT only) runs before querying.
    package func checkCompatible(_ connection: PostgreSQLConnection) throws {
        if try !hasMigrationsTable(connection) {
            let tables = try connection.queryFirst("""
                SELECT count(*) AS n FROM pg_catalog.pg_tables WHERE schemaname = current_schema()
                """)?.int("n") ?? 0
            if tables > 0 {
                throw StoreError.notAPostgreSQLCatalogue(database: connection.displayName,
                                                         schema: try currentSchema(connection))
            }
            return
        }
        let found = try currentVersion(of: connection)
        if found > latestVersion {
            throw StoreError.newerSchema(path: connection.displayName, found: found, known: latestVersion)
        }
    }

    /// Throws unless the database is at exactly this binary's schema: what a query (which never
    /// migrates, and may run as the SELECT-only lookup role) checks first. An empty or older database
    /// is ``StoreError/outdatedSchema(path:found:known:)``: an ingest migrates it.
    package func checkUpToDate(_ connection: PostgreSQLConnection) throws {
        try checkCompatible(connection)
        let found = try currentVersion(of: connection)
        if found < latestVersion {
            throw StoreError.outdatedSchema(path: connection.displayName, found: found, known: latestVersion)
        }
    }

    /// Migrations recorded in the database, in order, with when they were applied.
    package func appliedMigrations(_ connection: PostgreSQLConnection) throws -> [(id: Int, name: String, appliedAt: String)] {
        guard try hasMigrationsTable(connection) else { return [] }
        return try connection.query("SELECT id, name, applied_at FROM schema_migrations ORDER BY id").map {
            ($0.int("id") ?? 0, $0.string("name") ?? "", $0.string("applied_at") ?? "")
        }
    }

    /// Applies every migration newer than the database's version, all in one transaction.
    /// Returns the ids applied.
    @discardableResult
    package func migrate(_ connection: PostgreSQLConnection, now: Date = Date()) throws -> [Int] {
        // Up to date (or newer): known without the lock. Anything else is decided under it: hosts
        // starting at once on a new database would otherwise see another's migration commit between
        // two reads ("tables but no schema_migrations").
        if try hasMigrationsTable(connection) {
            let found = try currentVersion(of: connection)
            if found > latestVersion {
                throw StoreError.newerSchema(path: connection.displayName, found: found, known: latestVersion)
            }
            if found == latestVersion { return [] }
        }
        guard !connection.isInTransaction else {
            throw StoreError.invalidMigrations(reason: "PostgreSQL migrations run in a transaction of their own")
        }
        return try connection.transaction {
            try connection.execute("SELECT pg_advisory_xact_lock($1::bigint)", [.integer(Self.lockKey)])
            // Another host may have migrated while this one waited: read again under the lock.
            try checkCompatible(connection)
            try connection.execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    id integer PRIMARY KEY,
                    name text COLLATE "C" NOT NULL,
                    applied_at text COLLATE "C" NOT NULL
                )
                """)
            let current = try currentVersion(of: connection)
            var applied: [Int] = []
            for migration in migrations where migration.id > current {
                try connection.executeScript(migration.sql)
                try connection.execute("INSERT INTO schema_migrations (id, name, applied_at) VALUES ($1, $2, $3)",
                                       [.integer(Int64(migration.id)), .text(migration.name), SQLValue(now)])
                applied.append(migration.id)
            }
            return applied
        }
    }

    private func hasMigrationsTable(_ connection: PostgreSQLConnection) throws -> Bool {
        try connection.queryFirst("""
            SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = 'schema_migrations'
            """) != nil
    }

    private func currentSchema(_ connection: PostgreSQLConnection) throws -> String {
        try connection.queryFirst("SELECT current_schema() AS name")?.string("name") ?? "?"
    }
}
