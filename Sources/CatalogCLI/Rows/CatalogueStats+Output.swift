import CatalogCore
import CatalogStore
import Foundation

extension CatalogueStats {
    /// The `stats` object: where the catalogue is, what it holds, and how old its answers are.
    func output(database: String, now: Date) -> JSONValue {
        let statuses: [(String, ProfileSignature.Status?)] = ProfileSignature.Status.allCases.map { ($0.rawValue, $0) }
            + [("unchecked", nil)]
        /// Whole seconds since an ingest finished: how old the answers are.
        func ageSeconds(_ finished: Date?) -> JSONValue { .optional(finished.map { Int(now.timeIntervalSince($0).rounded(.down)) }) }
        return .object([
            ("database", .string(database)),
            ("schema_version", .int(Int64(schemaVersion))),
            ("profiles", .int(Int64(profiles))),
            ("profiles_present", .int(Int64(profilesPresent))),
            ("profiles_installed", .int(Int64(profilesInstalled))),
            ("profile_locations", .int(Int64(profileLocations))),
            ("profiles_by_signature", .object(statuses.map { ($0.0, .int(Int64(profilesBySignature[$0.1] ?? 0))) })),
            ("certificates", .int(Int64(certificates))),
            ("devices", .int(Int64(devices))),
            ("build_count", .int(Int64(presentBuilds))),
            ("removed_build_count", .int(Int64(removedBuilds))),
            ("runs", .int(Int64(runs))),
            ("last_run", lastRun.map { run in
                .object([
                    ("run_id", .int(run.runID)),
                    ("started_at", .optional(run.startedAt)),
                    ("finished_at", .optional(run.finishedAt)),
                    ("status", .string(run.status.rawValue)),
                    ("reason", .optional(run.reason)),
                    ("files_scanned", .int(Int64(run.filesScanned))),
                    ("errors", .int(Int64(run.errors))),
                ])
            } ?? .null),
            ("last_successful_ingest", .optional(lastSuccessfulIngest)),
            ("age_seconds", ageSeconds(lastSuccessfulIngest)),
            ("hosts", .array(hosts.map { host in
                .object([
                    ("host", .optional(host.host)),
                    ("runs", .int(Int64(host.runs))),
                    ("last_status", .string(host.lastStatus.rawValue)),
                    ("last_successful_ingest", .optional(host.lastSuccessfulIngest)),
                    ("age_seconds", ageSeconds(host.lastSuccessfulIngest)),
                ])
            })),
        ])
    }
}
