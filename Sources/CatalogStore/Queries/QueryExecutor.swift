/// What the read side needs of a database: rows for a query whose parameters are written SQLite's
/// way (`?`, `?NNN`), and which engine it is, for the few fragments the dialects spell differently
/// (``SQLDialect``). SQLite's ``Connection`` and ``PostgreSQLConnection`` both serve it, so the
/// same queries give the same typed records on both engines.
protocol QueryExecutor: AnyObject {
    var dialect: SQLDialect { get }
    /// The schema version the catalogue is at.
    func schemaVersion() throws -> Int
    /// Calls `body` for each row of `sql` as it is read.
    func eachRow(_ sql: String, _ parameters: [SQLValue], _ body: (Row) throws -> Void) throws
    /// The first row of `sql`; the rest are not read.
    func firstRow(_ sql: String, _ parameters: [SQLValue]) throws -> Row?
}

extension QueryExecutor {
    func rows(_ sql: String, _ parameters: [SQLValue] = []) throws -> [Row] {
        var rows: [Row] = []
        try eachRow(sql, parameters) { rows.append($0) }
        return rows
    }

    func firstRow(_ sql: String) throws -> Row? {
        try firstRow(sql, [])
    }
}

extension Connection: QueryExecutor {
    var dialect: SQLDialect { .sqlite }

    func schemaVersion() throws -> Int {
        try Migrator().currentVersion(of: self)
    }

    func eachRow(_ sql: String, _ parameters: [SQLValue], _ body: (Row) throws -> Void) throws {
        try forEachRow(sql, parameters, body)
    }

    func firstRow(_ sql: String, _ parameters: [SQLValue]) throws -> Row? {
        try queryFirst(sql, parameters)
    }
}

extension PostgreSQLConnection: QueryExecutor {
    var dialect: SQLDialect { .postgreSQL }

    func schemaVersion() throws -> Int {
        try PostgreSQLMigrator().currentVersion(of: self)
    }

    func eachRow(_ sql: String, _ parameters: [SQLValue], _ body: (Row) throws -> Void) throws {
        for row in try query(SQLDialect.numberedPlaceholders(sql), parameters) { try body(row) }
    }

    func firstRow(_ sql: String, _ parameters: [SQLValue]) throws -> Row? {
        try queryFirst(SQLDialect.numberedPlaceholders(sql), parameters)
    }
}
