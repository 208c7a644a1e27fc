/// A file, folder or PATH an ingest could not read or decode, and the run that met it.
package struct IngestErrorSummary: Sendable, Equatable {
    package var runID: Int64
    /// The run's host; nil for a SQLite catalogue's own, unnamed host.
    package var host: String?
    package var path: String
    package var message: String
}

extension IngestErrorSummary {
    init(_ row: Row) {
        self.init(runID: row.int64("run_id") ?? 0, host: row.string("host"), path: row.string("path") ?? "", message: row.string("message") ?? "")
    }
}
