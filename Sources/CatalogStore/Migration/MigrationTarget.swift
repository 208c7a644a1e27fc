import Foundation

/// What ``SchemaMigrator`` needs of an engine: its queries, where `schema_migrations` is, what "not
/// a catalogue" means there, and how a batch of migrations is applied atomically.
package protocol MigrationTarget {
    /// The migrations compiled into this binary for the engine.
    static var bundledMigrations: [Migration] { get }
    /// How errors name the database (a path, or a redacted connection string).
    var migrationName: String { get }
    var isInTransaction: Bool { get }
    /// The first row of `sql`, its parameters written SQLite's way (`?`).
    func migrationRow(_ sql: String, _ parameters: [SQLValue]) throws -> Row?
    func migrationRows(_ sql: String) throws -> [Row]
    /// Runs one statement, its parameters written SQLite's way (`?`).
    func migrationExecute(_ sql: String, _ parameters: [SQLValue]) throws
    func executeScript(_ sql: String) throws
    func hasMigrationsTable() throws -> Bool
    /// Throws unless the database holds no tables (called when it has no `schema_migrations`).
    func checkEmpty() throws
    func createMigrationsTable() throws
    /// Checks what the engine could not check while the migration ran (SQLite: foreign keys).
    func checkAfterMigration(_ migration: Migration) throws
    /// Applies each pending migration through `migrator.apply(_:to:now:)`, atomically as the
    /// engine allows; returns the ids applied.
    func applyPending(_ migrator: SchemaMigrator<Self>, now: Date) throws -> [Int]
}
