/// Which engine a catalogue name (`--db VALUE` or `$CATALOG_DB`) selects: a `postgresql://` or
/// `postgres://` URI (any case) is a PostgreSQL database; anything else is the path of a SQLite file.
///
/// libpq's conventions still apply inside a URI: `postgresql://` alone connects where `PGHOST`,
/// `PGDATABASE`, `~/.pgpass` … say, and `postgresql:///?service=fleet` reads `pg_service.conf`. A
/// libpq keyword string (`host=db dbname=catalog`) is not recognised here — it would be a legal
/// file name — so it must be given as a URI on the command line.
package enum CatalogueEngine: Equatable, Sendable, CustomStringConvertible {
    case sqlite(path: String)
    case postgreSQL(connectionString: String)

    package init(_ value: String) {
        self = ConnectionString.isURI(value) ? .postgreSQL(connectionString: value) : .sqlite(path: value)
    }

    /// True for a PostgreSQL catalogue.
    package var isPostgreSQL: Bool {
        if case .postgreSQL = self { return true }
        return false
    }

    /// The catalogue as shown to people: the path, or the connection string without its password.
    package var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgreSQL(let connectionString): return ConnectionString.redacted(connectionString)
        }
    }
}
