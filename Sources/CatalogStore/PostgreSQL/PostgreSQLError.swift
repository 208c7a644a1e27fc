/// A failed PostgreSQL call: the SQLSTATE the server (or libpq) reported, its message, and the SQL or
/// the (redacted) connection string concerned.
///
/// Printed like ``SQLiteError``: `PostgreSQL error 23505: duplicate key value violates unique
/// constraint "profiles_uuid_key" - while executing `INSERT …``. Callers switch on ``condition``
/// (unique violation, serialization failure, …), never on the message.
package struct PostgreSQLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, by meaning: the SQLSTATE classes callers act on.
    package enum Condition: Equatable, Sendable {
        /// 23505: a row with the same key exists (an upsert on the wrong key, or a lost race).
        case uniqueViolation
        /// 23503: a reference to a row that does not exist, or a delete of a referenced row.
        case foreignKeyViolation
        /// 40001: a serializable or repeatable-read transaction lost a race; retry it whole.
        case serializationFailure
        /// 40P01: the server broke a deadlock by failing this transaction; retry it whole.
        case deadlock
        /// 42501: the role may not do this (a lookup role writing).
        case insufficientPrivilege
        /// 55P03: a lock (an ingest lock, `lock_timeout`) was not granted in time.
        case lockNotAvailable
        /// 25006: a write in a read-only transaction.
        case readOnlyTransaction
        /// Class 08 and the shutdown codes (57P01–57P03): no connection, or it was lost.
        case connectionFailure
        case other
    }

    /// The five-character SQLSTATE, e.g. `23505`.
    package var sqlState: String
    package var message: String
    /// The server's DETAIL line, when it sent one.
    package var detail: String?
    /// The statement that failed, when there was one.
    package var sql: String?

    package init(sqlState: String, message: String, detail: String? = nil, sql: String? = nil) {
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.sql = sql
    }

    package var condition: Condition {
        switch sqlState {
        case "23505": return .uniqueViolation
        case "23503": return .foreignKeyViolation
        case "40001": return .serializationFailure
        case "40P01": return .deadlock
        case "42501": return .insufficientPrivilege
        case "55P03": return .lockNotAvailable
        case "25006": return .readOnlyTransaction
        case "57P01", "57P02", "57P03": return .connectionFailure
        default: return sqlState.hasPrefix("08") ? .connectionFailure : .other
        }
    }

    /// A transaction that failed so may succeed when run again from its start.
    package var isRetryable: Bool { condition == .serializationFailure || condition == .deadlock }

    package var description: String {
        var text = "PostgreSQL error \(sqlState): \(message)"
        if let detail, !detail.isEmpty { text += " (\(detail))" }
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }
}

extension PostgreSQLError {
    /// SQLSTATEs this code raises itself.
    /// 08001 `sqlclient_unable_to_establish_sqlconnection`: the connection could not be made.
    package static let cannotConnect = "08001"
    /// 08006 `connection_failure`: the connection broke and no server code came with the failure.
    package static let connectionLost = "08006"
    /// 22021 `character_not_in_repertoire`: text holding NUL, which PostgreSQL cannot store.
    package static let characterNotInRepertoire = "22021"
    /// 55P03 `lock_not_available`.
    package static let lockNotAvailable = "55P03"
    /// XX000 `internal_error`, for a failure that carried no SQLSTATE.
    package static let internalError = "XX000"
}
