/// A statement run many times on PostgreSQL: its SQL numbered once, sent with each run's values.
final class PostgreSQLWrite: PreparedWrite {
    private let connection: PostgreSQLConnection
    private let sql: String

    init(connection: PostgreSQLConnection, sql: String) {
        self.connection = connection
        self.sql = sql
    }

    func run(_ values: [SQLValue]) throws -> Int64? {
        try connection.queryFirst(sql, values)?[0].int64
    }
}
