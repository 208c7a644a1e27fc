/// Why a catalogue could not be opened or used, in words for the person running `catalog`.
package enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case notADatabase(path: String)
    /// A SQLite database with tables of its own but no migrations table: someone else's database.
    case notACatalogue(path: String)
    case newerSchema(path: String, found: Int, known: Int)
    /// Read-only open of a catalogue that still needs migrations this binary would apply.
    case outdatedSchema(path: String, found: Int, known: Int)
    case invalidMigrations(reason: String)

    package var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "cannot open catalogue \(path): \(reason)"
        case .notADatabase(let path):
            return "\(path) is not a SQLite database"
        case .notACatalogue(let path):
            return "\(path) is a SQLite database but not a catalogue (it has no schema_migrations table)"
        case .newerSchema(let path, let found, let known):
            return "catalogue \(path) was written by a newer catalog (schema \(found), this binary knows \(known))"
        case .outdatedSchema(let path, let found, let known):
            return "catalogue \(path) has schema \(found) but this binary needs \(known); run 'catalog ingest' once to migrate it"
        case .invalidMigrations(let reason):
            return "invalid migrations: \(reason)"
        }
    }
}
