/// How an ingest run ended (`ingest_runs.status`).
package enum RunStatus: String, Sendable {
    case running
    case ok
    /// Some roots were read, others could not be (stored as `failed` with `partial` = 1).
    case partial
    case failed

    /// The column expression that reads a run's status, `partial` included.
    package static let column = "CASE WHEN partial = 1 THEN 'partial' ELSE status END"
}
