/// What the writer needs of a database, on top of the read side (``QueryExecutor``) and
/// transactions: statements that change rows, written SQLite's way (`?`, `?NNN`, `:name`), and
/// statements prepared once to run per device, certificate or entitlement. SQLite's ``Connection``
/// and ``PostgreSQLConnection`` both serve it, so one ``CatalogWriter`` writes either engine.
protocol WriteExecutor: QueryExecutor, TransactionRunner {
    /// Runs a statement with positional parameters; returns the rows it changed.
    @discardableResult
    func write(_ sql: String, _ parameters: [SQLValue]) throws -> Int
    /// Runs a statement with named parameters (`:name`); returns the rows it changed.
    @discardableResult
    func write(_ sql: String, named parameters: [String: SQLValue]) throws -> Int
    /// The rows a statement with named parameters returns (a query, or `… RETURNING id`).
    func rows(_ sql: String, named parameters: [String: SQLValue]) throws -> [Row]
    /// `sql` prepared to run many times.
    func prepareWrite(_ sql: String) throws -> any PreparedWrite
}

extension Connection: WriteExecutor {
    func write(_ sql: String, _ parameters: [SQLValue]) throws -> Int {
        try execute(sql, parameters)
    }

    func write(_ sql: String, named parameters: [String: SQLValue]) throws -> Int {
        try execute(sql, parameters)
    }

    func rows(_ sql: String, named parameters: [String: SQLValue]) throws -> [Row] {
        try query(sql, parameters)
    }

    func prepareWrite(_ sql: String) throws -> any PreparedWrite {
        try prepare(sql)
    }
}

extension Statement: PreparedWrite {
    func run(_ values: [SQLValue]) throws -> Int64? {
        defer { reset() }
        try bind(values)
        guard try step() else { return nil }
        let first = int64(at: 0)
        while try step() {}
        return first
    }
}

extension PostgreSQLConnection: WriteExecutor {
    func write(_ sql: String, _ parameters: [SQLValue]) throws -> Int {
        try execute(SQLDialect.numberedPlaceholders(sql), parameters)
    }

    func write(_ sql: String, named parameters: [String: SQLValue]) throws -> Int {
        let (numbered, values) = try SQLDialect.numberedNames(sql, parameters)
        return try execute(numbered, values)
    }

    func rows(_ sql: String, named parameters: [String: SQLValue]) throws -> [Row] {
        let (numbered, values) = try SQLDialect.numberedNames(sql, parameters)
        return try query(numbered, values)
    }

    func prepareWrite(_ sql: String) throws -> any PreparedWrite {
        PostgreSQLWrite(connection: self, sql: SQLDialect.numberedPlaceholders(sql))
    }
}
