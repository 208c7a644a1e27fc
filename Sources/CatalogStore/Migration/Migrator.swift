import Foundation

/// Brings a catalogue's schema up to date, on either engine: applies each migration it lacks, in
/// order, recorded in `schema_migrations` (the same table and version numbers on both, so "schema
/// 8" is one model). What differs between the engines — where the table is looked for, what makes a
/// database "not a catalogue", and how the pending migrations are applied atomically — is the
/// ``MigrationTarget``'s; everything else is here, once.
///
/// It refuses — and leaves untouched — a database recorded at a newer schema than this binary
/// knows, and a database that has tables but no `schema_migrations` (not a catalogue).
package struct SchemaMigrator<Database: MigrationTarget>: Sendable {
    package let migrations: [Migration]

    /// `migrations` must have strictly increasing, positive ids.
    package init(migrations: [Migration] = Database.bundledMigrations) throws {
        try Migration.checkOrder(migrations)
        self.migrations = migrations
    }

    /// The newest schema version this binary knows.
    package var latestVersion: Int { migrations.last?.id ?? 0 }

    /// The highest migration id recorded in the database, 0 when it has none. Reads only.
    package func currentVersion(of database: Database) throws -> Int {
        guard try database.hasMigrationsTable() else { return 0 }
        return try database.migrationRow("SELECT coalesce(max(id), 0) AS version FROM schema_migrations", [])?.int("version") ?? 0
    }

    /// Throws unless this binary may use the database: it must not be newer than this binary, and
    /// must be a catalogue or empty. Reads only (what a read-only reader may run).
    package func checkCompatible(_ database: Database) throws {
        guard try database.hasMigrationsTable() else {
            try database.checkEmpty()
            return
        }
        let found = try currentVersion(of: database)
        if found > latestVersion {
            throw StoreError.newerSchema(path: database.migrationName, found: found, known: latestVersion)
        }
    }

    /// Throws unless the database is at exactly this binary's schema: what a reader, which never
    /// migrates, checks first. An empty or older one is ``StoreError/outdatedSchema(path:found:known:)``.
    package func checkUpToDate(_ database: Database) throws {
        try checkCompatible(database)
        let found = try currentVersion(of: database)
        if found < latestVersion {
            throw StoreError.outdatedSchema(path: database.migrationName, found: found, known: latestVersion)
        }
    }

    /// Migrations recorded in the database, in order, with when they were applied.
    package func appliedMigrations(_ database: Database) throws -> [(id: Int, name: String, appliedAt: String)] {
        guard try database.hasMigrationsTable() else { return [] }
        return try database.migrationRows("SELECT id, name, applied_at FROM schema_migrations ORDER BY id").map {
            ($0.int("id") ?? 0, $0.string("name") ?? "", $0.string("applied_at") ?? "")
        }
    }

    /// Applies every migration newer than the database's version. Returns the ids applied.
    @discardableResult
    package func migrate(_ database: Database, now: Date = Date()) throws -> [Int] {
        // Up to date: take no write lock, so opening a catalogue while an ingest writes to it does
        // not queue behind that ingest only to find nothing to do.
        if try database.hasMigrationsTable() {
            let found = try currentVersion(of: database)
            if found > latestVersion {
                throw StoreError.newerSchema(path: database.migrationName, found: found, known: latestVersion)
            }
            if found == latestVersion { return [] }
        }
        guard !database.isInTransaction else {
            throw StoreError.invalidMigrations(reason: "migrations run in a transaction of their own")
        }
        return try database.applyPending(self, now: now)
    }

    /// Applies `migration` unless the database has it (another process may have migrated
    /// meanwhile: called under the engine's write lock, this reads the version again). Returns
    /// whether it did. The engine's ``MigrationTarget/applyPending(_:now:)`` calls it for each
    /// migration, inside its transaction.
    func apply(_ migration: Migration, to database: Database, now: Date) throws -> Bool {
        try database.createMigrationsTable()
        let current = try currentVersion(of: database)
        if current > latestVersion {
            throw StoreError.newerSchema(path: database.migrationName, found: current, known: latestVersion)
        }
        guard migration.id > current else { return false }
        try database.executeScript(migration.sql)
        try database.checkAfterMigration(migration)
        try database.migrationExecute("INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)",
                                 [.integer(Int64(migration.id)), .text(migration.name), SQLValue(now)])
        return true
    }
}

/// A SQLite catalogue's migrator.
package typealias Migrator = SchemaMigrator<Connection>
/// A PostgreSQL catalogue's migrator.
package typealias PostgreSQLMigrator = SchemaMigrator<PostgreSQLConnection>
