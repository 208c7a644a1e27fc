import Foundation

/// The per-host ingest lock on PostgreSQL: a session-level advisory lock, so a second ingest from
/// the same host waits for the first (and can say so), while ingests from other hosts run alongside.
/// The server releases it when the session ends, so a killed ingest never leaves it held.
extension PostgreSQLConnection {
    /// The advisory lock key for `host`'s ingests: FNV-1a (64-bit) of a fixed prefix and the host
    /// name, computed here so it is the same on every server version and platform.
    package static func ingestLockKey(host: String) -> Int64 {
        Int64(bitPattern: (Array("catalog ingest\u{0}".utf8) + Array(host.utf8)).withUnsafeBufferPointer(FNV1a.hash))
    }

    /// Takes `host`'s ingest lock. If another session holds it, calls `onWait` once (so the caller
    /// can print "waiting for …") and then waits up to `seconds`; past that it throws a
    /// ``PostgreSQLError`` whose condition is ``PostgreSQLError/Condition/lockNotAvailable``.
    package func lockIngest(host: String, waitingUpTo seconds: Double, onWait: () -> Void = {}) throws {
        let key = SQLValue.integer(Self.ingestLockKey(host: host))
        if try queryFirst("SELECT pg_try_advisory_lock($1::bigint) AS locked", [key])?.bool("locked") == true {
            return
        }
        onWait()
        let previous = try queryFirst("SELECT current_setting('lock_timeout') AS value")?.string("value") ?? "0"
        let milliseconds = max(1, Int((seconds * 1000).rounded(.up)))
        try execute("SELECT set_config('lock_timeout', $1, false)", [.text("\(milliseconds)ms")])
        defer { _ = try? execute("SELECT set_config('lock_timeout', $1, false)", [.text(previous)]) }
        do {
            try execute("SELECT pg_advisory_lock($1::bigint)", [key])
        } catch let error as PostgreSQLError where error.condition == .lockNotAvailable {
            throw PostgreSQLError(sqlState: error.sqlState,
                                  message: "another ingest for host '\(host)' is writing to \(displayName) (waited \(Int(seconds)) s)")
        }
    }

    /// Releases `host`'s ingest lock; false when this session did not hold it.
    @discardableResult
    package func unlockIngest(host: String) throws -> Bool {
        try queryFirst("SELECT pg_advisory_unlock($1::bigint) AS unlocked",
                       [.integer(Self.ingestLockKey(host: host))])?.bool("unlocked") == true
    }
}
