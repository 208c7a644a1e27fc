/// How an ingest run ended (`ingest_runs.status`).
package enum RunStatus: String, Sendable {
    case running
    case ok
    case failed
}
