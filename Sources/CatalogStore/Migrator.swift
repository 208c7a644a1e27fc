import Foundation

/// Brings a catalogue's schema up to date: applies each migration it lacks, in order, each in a
/// savepoint of one `BEGIN IMMEDIATE` transaction, and records it in `schema_migrations`.
///
/// Foreign keys are switched off around the migrations, as GRDB's migrator does and SQLite's
/// documented table-rebuild procedure requires (`CREATE TABLE new_x … ; INSERT … ; DROP TABLE x;
/// ALTER TABLE new_x RENAME TO x`): with them on, `DROP TABLE profiles` would cascade-delete every
/// location, device link and entitlement. `PRAGMA foreign_keys` is a no-op inside a transaction, so
/// the order is: foreign keys off, BEGIN, then for each migration a savepoint, the migration,
/// `PRAGMA foreign_key_check` (any dangling reference rolls the migration back) and its release,
/// COMMIT, foreign keys on.
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

    /// Every pending migration inside one transaction, each in a savepoint of its own; foreign keys
    /// are already off. One commit rather than one per migration: a new catalogue took 14 of them,
    /// each with four syncs and a journal created and deleted (59 syncs in all, now 7; an ingest
    /// into a new catalogue of an empty folder 37 → 29 ms here). A migration that fails is rolled
    /// back to its savepoint and the ones before it are committed, as when each had its own
    /// transaction; a run killed half way leaves the version it began with.
    private func applyPending(_ connection: Connection, now: Date) throws -> [Int] {
        var failure: (any Error)?
        let applied = try connection.transaction(.immediate) { () throws -> [Int] in
            var applied: [Int] = []
            for migration in migrations {
                do {
                    // Inside the transaction, a savepoint: rolled back to if the migration fails.
                    let didApply = try connection.transaction(.immediate) { try apply(migration, to: connection, now: now) }
                    if didApply { applied.append(migration.id) }
                } catch {
                    // SQLite rolls the whole transaction back itself on some errors (a full disk):
                    // then nothing is kept.
                    guard connection.isInTransaction else { throw error }
                    failure = error
                    break
                }
            }
            return applied
        }
        if let failure { throw failure }
        return applied
    }

    /// Applies `migration` unless the catalogue has it (another process may have migrated
    /// meanwhile: this reads the version under the write lock). Returns whether it did.
    private func apply(_ migration: Migration, to connection: Connection, now: Date) throws -> Bool {
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

    private func hasMigrationsTable(_ connection: Connection) throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'") != nil
    }
}
