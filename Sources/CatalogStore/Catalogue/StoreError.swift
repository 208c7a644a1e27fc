import Foundation

/// Why a catalogue could not be opened or used, in words for the person running `catalog`.
package enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    /// No catalogue at the path: nothing has been ingested there yet.
    case missing(path: String)
    /// The folder a new catalogue goes in cannot be created.
    case cannotCreateFolder(path: String, reason: String)
    /// Another process (a second ingest) holds the write lock past the wait.
    case busy(path: String)
    /// The disk or quota filled up; the transaction was rolled back, nothing stored is lost.
    case diskFull(path: String, detail: String)
    /// The file cannot be written by this user (or is on a read-only volume).
    case readOnly(path: String)
    /// The file can be written but its folder cannot, where SQLite creates its journal.
    case readOnlyFolder(path: String, folder: String)
    /// A write was interrupted (a killed ingest) and left a journal this reader may not roll back.
    case interruptedWrite(path: String)
    /// Another ingest of the same host holds its lock on a PostgreSQL catalogue past the wait.
    case hostBusy(catalogue: String, host: String)
    /// A PostgreSQL catalogue (named without its password) gathers several hosts: a writer must name one.
    case hostRequired(catalogue: String)
    case notADatabase(path: String)
    /// A SQLite database with tables of its own but no migrations table: someone else's database.
    case notACatalogue(path: String)
    /// A PostgreSQL schema with tables of its own but no migrations table (`database` is redacted).
    case notAPostgreSQLCatalogue(database: String, schema: String)
    case newerSchema(path: String, found: Int, known: Int)
    /// Read-only open of a catalogue that still needs migrations this binary would apply.
    case outdatedSchema(path: String, found: Int, known: Int)
    case invalidMigrations(reason: String)
    /// A column holds a value outside the set its CHECK constraint allows (a hand-edited catalogue).
    case unexpectedValue(column: String, value: String)
    /// A profile's stored raw plist cannot be rebuilt (a damaged file, or a certificate row missing).
    case damagedRawPlist(path: String, uuid: String, reason: String)

    package var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "cannot open catalogue \(path): \(reason)"
        case .missing(let path):
            return "no catalogue at \(path); run 'catalog ingest PATH...' first (or pass --db)"
        case .cannotCreateFolder(let path, let reason):
            return "cannot create the folder for \(path): \(reason)"
        case .busy(let path):
            return "another ingest is writing to \(path); try again when it has finished"
        case .diskFull(let path, let detail):
            return "the disk is full while writing \(path); the catalogue is unchanged (\(detail))"
        case .readOnly(let path):
            return "cannot write to \(path): it is read-only"
        case .readOnlyFolder(let path, let folder):
            return "cannot write to \(path): the file is writable but its folder \(folder) is read-only, "
                + "and SQLite creates its journal there"
        case .interruptedWrite(let path):
            return "catalogue \(path): an ingest was interrupted and left \(path)-journal, which only a user who may "
                + "write the catalogue can roll back; any catalog command run by that user (its next ingest) does so"
        case .hostBusy(let catalogue, let host):
            return "another ingest for host '\(host)' is writing to \(catalogue); try again when it has finished"
        case .hostRequired(let catalogue):
            return "\(catalogue) gathers several hosts: name this one (--host NAME)"
        case .notADatabase(let path):
            return "\(path) is not a SQLite database"
        case .notACatalogue(let path):
            return "\(path) is a SQLite database but not a catalogue (it has no schema_migrations table)"
        case .notAPostgreSQLCatalogue(let database, let schema):
            return "schema \(schema) of \(database) has tables but no schema_migrations table: it is not a catalogue "
                + "(give catalog an empty database or schema of its own)"
        case .newerSchema(let path, let found, let known):
            return "catalogue \(path) was written by a newer catalog (schema \(found), this binary knows \(known))"
        case .outdatedSchema(let path, let found, let known):
            return "catalogue \(path) has schema \(found) but this binary needs \(known); run 'catalog ingest' once to migrate it"
        case .invalidMigrations(let reason):
            return "invalid migrations: \(reason)"
        case .unexpectedValue(let column, let value):
            return "the catalogue holds '\(value)' in \(column), which this catalog does not know"
        case .damagedRawPlist(let path, let uuid, let reason):
            return "catalogue \(path): the raw plist of profile \(uuid) cannot be rebuilt: \(reason)"
        }
    }
}

extension StoreError {
    /// The case a caller acts on for a SQLite failure (busy, disk full, read-only), else the
    /// SQLite error itself.
    static func mapping(_ error: SQLiteError, path: String) -> any Error {
        switch error.primaryCode {
        case SQLiteError.busy, SQLiteError.locked: return StoreError.busy(path: path)
        case SQLiteError.full: return StoreError.diskFull(path: path, detail: error.message)
        case SQLiteError.readOnly: return readOnlyFailure(path: path)
        default: return error
        }
    }

    /// A read-only failure, saying which is read-only: the file, or only the folder it is in.
    static func readOnlyFailure(path: String) -> StoreError {
        let parent = (path as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        if access(path, W_OK) == 0, access(folder, W_OK) != 0 { return .readOnlyFolder(path: path, folder: folder) }
        return .readOnly(path: path)
    }
}
