import CatalogCore
import CatalogStore

extension VersionSummary {
    /// The version row (`versions BUNDLE_ID`).
    var output: JSONValue {
        .object([
            ("bundle_id", .string(bundleID)),
            ("short_version", .string(shortVersion)),
            ("build_numbers", .strings(buildNumbers)),
            ("build_count", .int(Int64(buildCount))),
            ("latest_build", .optional(latestBuild)),
            ("formatted_version", .optional(formattedVersion)),
            ("sources", .strings(sources.map(\.rawValue))),
            ("first_seen", .optional(firstSeen)),
            ("last_seen", .optional(lastSeen)),
            ("first_archived_at", .optional(firstArchivedAt)),
            ("last_archived_at", .optional(lastArchivedAt)),
            ("profile_kind", .optional(profileKind?.rawValue)),
            ("launches_until", .optional(launchesUntil)),
            ("profile_superseded_by", .optional(profileSupersededBy)),
        ])
    }
}
