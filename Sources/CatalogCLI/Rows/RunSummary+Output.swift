import CatalogCore
import CatalogStore

extension RunSummary {
    /// The run row (`runs`).
    var output: JSONValue {
        .object([
            ("run_id", .int(runID)),
            ("started_at", .optional(startedAt)),
            ("finished_at", .optional(finishedAt)),
            ("status", .string(status.rawValue)),
            ("reason", .optional(reason)),
            ("host", .optional(host)),
            ("roots", .strings(roots)),
            ("files_scanned", .int(Int64(counts.filesScanned))),
            ("files_unchanged", .int(Int64(counts.filesUnchanged))),
            ("files_decoded", .int(Int64(counts.filesDecoded))),
            ("profiles_new", .int(Int64(counts.profilesNew))),
            ("profiles_renewed", .int(Int64(counts.profilesRenewed))),
            ("profiles_removed", .int(Int64(counts.profilesRemoved))),
            ("builds_seen", .int(Int64(counts.buildsSeen))),
            ("builds_new", .int(Int64(counts.buildsNew))),
            ("builds_removed", .int(Int64(counts.buildsRemoved))),
            ("errors", .int(Int64(counts.errors))),
        ])
    }
}
