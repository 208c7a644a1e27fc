import Foundation

/// Brings a catalogue's schema up to date: applies each migration it lacks, in order, each in its
/// own `BEGIN IMMEDIATE` transaction, and records it in `schema_migrations`.
///
/// Foreign keys are switched off around the migrations, as GRDB's migrator does and SQLite's
/// documented table-rebuild procedure requires (`CREATE TABLE new_x … ; INSERT … ; DROP TABLE x;
/// ALTER TABLE new_x RENAME TO x`): with them on, `DROP TABLE profiles` would cascade-delete every
/// location, device link and entitlement. `PRAGMA foreign_keys` is a no-op inside a transaction, so
/// the order is: foreign keys off, BEGIN, migrate, `PRAGMA foreign_key_check` (any dangling
/// reference rolls the migration back), COMMIT, foreign keys on.
///
/// It refuses — and leaves untouched — a database recorded at a newer schema than this binary
/// knows, and a SQLite database that has tables but no `schema_migrations` (not a catalogue).
package struct Migrator: Sendable {
    package let migrations: [Migration]

    /// `migrations` must have strictly increasing, positive ids.
    package init(migrations: [Migration] = Migration.all) throws {
        try Migration.checkOrder(migrations)
        self.migrations = migrations
    }

    /// The newest schema version this binary knows.
    package var latestVersion: Int { migrations.last?.id ?? 0 }

    /// The highest migration id recorded in the database, 0 when it has none. Reads only.
    package func currentVersion(of connection: Connection) throws -> Int {
        guard try hasMigrationsTable(connection) else { return 0 }
        return try connection.queryFirst("SELECT max(id) AS version FROM schema_migrations")?.int("version") ?? 0
    }

    /// Throws unless this binary may use the database: it must not be newer than this binary, and
    /// must be a catalogue or empty. Reads only.
    package func checkCompatible(_ connection: Connection) throws {
        if try !hasMigrationsTable(connection) {
            let objects = try connection.queryFirst(
                "SELECT count(*) AS n FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
            if objects?.int("n") ?? 0 > 0 { throw StoreError.notACatalogue(path: connection.path) }
            return
        }
        let found = try currentVersion(of: connection)
        if found > latestVersion {
            throw StoreError.newerSchema(path: connection.path, found: found, known: latestVersion)
        }
    }

    /// Throws unless the database is at exactly this binary's schema: what a reader, which never
    /// migrates, checks first. An older one is ``StoreError/outdatedSchema(path:found:known:)``.
    package func checkUpToDate(_ connection: Connection) throws {
        try checkCompatible(connection)
        let found = try currentVersion(of: connection)
        if found < latestVersion {
            throw StoreError.outdatedSchema(path: connection.path, found: found, known: latestVersion)
        }
    }

    /// Migrations recorded in the database, in order, with when they were applied.
    package func appliedMigrations(_ connection: Connection) throws -> [(id: Int, name: String, appliedAt: String)] {
        guard try hasMigrationsTable(connection) else { return [] }
        return try connection.query("SELECT id, name, applied_at FROM schema_migrations ORDER BY id").map {
            ($0.int("id") ?? 0, $0.string("name") ?? "", $0.string("applied_at") ?? "")
        }
    }

    /// Applies every migration newer than the database's version. Returns the ids applied.
    @discardableResult
    package func migrate(_ connection: Connection, now: Date = Date()) throws -> [Int] {
        try checkCompatible(connection)
        // Up to date: take no write lock, so opening a catalogue while an ingest writes to it does not
        // queue behind that ingest (for the short busy timeout) only to find nothing to do.
        if try hasMigrationsTable(connection), try currentVersion(of: connection) >= latestVersion { return [] }
        guard !connection.isInTransaction else {
            throw StoreError.invalidMigrations(
                reason: "migrations must not run inside a transaction (foreign keys could not be switched off)")
        }
        try connection.execute("PRAGMA foreign_keys = OFF")
        let applied: [Int]
        do {
            applied = try applyPending(connection, now: now)
        } catch {
            // The migration's own error is the one to report; the connection keeps foreign keys on.
            _ = try? connection.execute("PRAGMA foreign_keys = ON")
            throw error
        }
        try connection.execute("PRAGMA foreign_keys = ON")
        return applied
    }

    /// Each pending migration in its own transaction; foreign keys are already off.
    private func applyPending(_ connection: Connection, now: Date) throws -> [Int] {
        var applied: [Int] = []
        for migration in migrations {
            let didApply = try connection.transaction(.immediate) { () throws -> Bool in
                // Re-read inside the write lock: another process may have migrated meanwhile.
                try connection.execute("""
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        id INTEGER PRIMARY KEY NOT NULL,
                        name TEXT NOT NULL,
                        applied_at TEXT NOT NULL
                    )
                    """)
                let current = try currentVersion(of: connection)
                if current > latestVersion {
                    throw StoreError.newerSchema(path: connection.path, found: current, known: latestVersion)
                }
                guard migration.id > current else { return false }
                try connection.executeScript(migration.sql)
                // With foreign keys off nothing was checked while the migration ran: check it all now.
                if let violation = try connection.queryFirst("PRAGMA foreign_key_check") {
                    throw SQLiteError(extendedCode: SQLiteError.constraintForeignKey,
                                      message: "migration \(migration.id)_\(migration.name) left a dangling reference in \(violation.string("table") ?? "?")",
                                      sql: "PRAGMA foreign_key_check")
                }
                try connection.execute("INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)",
                                       [.integer(Int64(migration.id)), .text(migration.name), SQLValue(now)])
                return true
            }
            if didApply { applied.append(migration.id) }
        }
        return applied
    }

    private func hasMigrationsTable(_ connection: Connection) throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'") != nil
    }
}
