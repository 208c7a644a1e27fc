import CatalogCore
import CatalogStore

extension IngestErrorSummary {
    /// The error row (`errors`).
    var output: JSONValue {
        .object([("run_id", .int(runID)), ("host", .optional(host)), ("path", .string(path)), ("message", .string(message))])
    }
}
