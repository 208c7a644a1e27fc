/// A failed SQLite call: the extended result code, SQLite's message, and the SQL being run.
///
/// Printed the way GRDB prints it, e.g.
/// `SQLite error 19: UNIQUE constraint failed: profiles.uuid - while executing `INSERT …``.
package struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE` is 2067); its low byte is the primary code.
    package var extendedCode: Int32
    package var message: String
    /// The statement that failed, when there was one.
    package var sql: String?

    package init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// The primary result code (`SQLITE_CONSTRAINT` is 19).
    package var primaryCode: Int32 { extendedCode & 0xFF }

    package var description: String {
        var text = "SQLite error \(primaryCode): \(message)"
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }
}

// MARK: - Result codes callers test for (the C module stays private to CatalogStore)

extension SQLiteError {
    package static let busy: Int32 = 5
    package static let locked: Int32 = 6
    package static let readOnly: Int32 = 8
    package static let full: Int32 = 13
    package static let cantOpen: Int32 = 14
    package static let constraint: Int32 = 19
    package static let misuse: Int32 = 21
    package static let range: Int32 = 25
    package static let notADatabase: Int32 = 26
    /// A read-only connection met a journal it would have to roll back (`SQLITE_READONLY_ROLLBACK`).
    package static let readOnlyRollback: Int32 = 776
    package static let constraintForeignKey: Int32 = 787
    package static let constraintNotNull: Int32 = 1299
    package static let constraintPrimaryKey: Int32 = 1555
    package static let constraintUnique: Int32 = 2067

    package var isConstraintViolation: Bool { primaryCode == Self.constraint }
    /// Another connection holds the write lock (a second ingest) past the busy timeout.
    package var isBusy: Bool { primaryCode == Self.busy }
    /// The disk (or quota) is full; the transaction was rolled back.
    package var isDiskFull: Bool { primaryCode == Self.full }
    /// The file or its folder cannot be written.
    package var isReadOnly: Bool { primaryCode == Self.readOnly }
}
