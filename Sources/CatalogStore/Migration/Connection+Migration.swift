import Foundation

/// SQLite's side of migrating: foreign keys are switched off around the migrations, as GRDB's
/// migrator does and SQLite's documented table-rebuild procedure requires (with them on, `DROP
/// TABLE profiles` would cascade-delete every location and entitlement). `PRAGMA foreign_keys` is a
/// no-op inside a transaction, so the order is: foreign keys off, BEGIN IMMEDIATE, then for each
/// migration a savepoint, the migration, `PRAGMA foreign_key_check` and its release, COMMIT,
/// foreign keys on. One commit for all of them: a new catalogue is created with a handful of syncs,
/// and a migration that fails is rolled back to its savepoint with the ones before it kept.
extension Connection: MigrationTarget {
    package static var bundledMigrations: [Migration] { Migration.all }
    package var migrationName: String { path }

    package func migrationRow(_ sql: String, _ parameters: [SQLValue]) throws -> Row? {
        try queryFirst(sql, parameters)
    }

    package func migrationRows(_ sql: String) throws -> [Row] {
        try query(sql)
    }

    package func migrationExecute(_ sql: String, _ parameters: [SQLValue]) throws {
        _ = try execute(sql, parameters)
    }

    package func hasMigrationsTable() throws -> Bool {
        try queryFirst("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'") != nil
    }

    package func checkEmpty() throws {
        let objects = try queryFirst("SELECT count(*) AS n FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
        if objects?.int("n") ?? 0 > 0 { throw StoreError.notACatalogue(path: path) }
    }

    package func createMigrationsTable() throws {
        try execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                id INTEGER PRIMARY KEY NOT NULL,
                name TEXT NOT NULL,
                applied_at TEXT NOT NULL
            )
            """)
    }

    /// With foreign keys off nothing was checked while the migration ran: check it all now.
    package func checkAfterMigration(_ migration: Migration) throws {
        if let violation = try queryFirst("PRAGMA foreign_key_check") {
            throw SQLiteError(extendedCode: SQLiteError.constraintForeignKey,
                              message: "migration \(migration.id)_\(migration.name) left a dangling reference in \(violation.string("table") ?? "?")",
                              sql: "PRAGMA foreign_key_check")
        }
    }

    package func applyPending(_ migrator: SchemaMigrator<Connection>, now: Date) throws -> [Int] {
        try execute("PRAGMA foreign_keys = OFF")
        defer { _ = try? execute("PRAGMA foreign_keys = ON") }
        var failure: (any Error)?
        let applied = try transaction(.immediate) { () throws -> [Int] in
            // Another process may have created or migrated the catalogue meanwhile: read again
            // under the write lock.
            try migrator.checkCompatible(self)
            var applied: [Int] = []
            for migration in migrator.migrations {
                do {
                    // Inside the transaction, a savepoint: rolled back to if the migration fails.
                    let didApply = try transaction(.immediate) { try migrator.apply(migration, to: self, now: now) }
                    if didApply { applied.append(migration.id) }
                } catch {
                    // SQLite rolls the whole transaction back itself on some errors (a full disk):
                    // then nothing is kept.
                    guard isInTransaction else { throw error }
                    failure = error
                    break
                }
            }
            return applied
        }
        if let failure { throw failure }
        return applied
    }
}
