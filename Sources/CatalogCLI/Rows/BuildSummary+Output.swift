import CatalogCore
import CatalogStore
import Foundation

extension BuildSummary {
    /// The build row (`builds`, `expiring --builds`, `devices UDID`).
    func output(now: Date) -> JSONValue {
        .object([
            ("type", .string("build")),
            ("bundle_id", .optional(bundleID)),
            ("short_version", .string(shortVersion)),
            ("build", .string(build)),
            ("formatted_version", .string(formattedVersion)),
            ("source_kind", .string(sourceKind.rawValue)),
            ("host", .optional(host)),
            ("path", .string(path)),
            ("app_path", .optional(appPath)),
            ("profile_uuid", .optional(profileUUID)),
            ("profile_name", .optional(profileName)),
            ("team_id", .optional(teamID)),
            ("platform", .optional(platform)),
            ("os", .optional(os?.rawValue)),
            ("package_type", .optional(packageType)),
            ("archived_at", .optional(archivedAt)),
            ("signing_identity", .optional(signingIdentity)),
            ("parent_bundle_id", .optional(parentBundleID)),
            ("first_seen", .optional(firstSeen)),
            ("last_seen", .optional(lastSeen)),
            ("removed_at", .optional(removedAt)),
            ("profile_kind", .optional(profileKind?.rawValue)),
            ("launches_until", .optional(launchesUntil)),
            ("launches_until_cause", .optional(launchesUntilCause?.rawValue)),
            ("days_left", DaysLeft.json(until: launchesUntil, from: now)),
            ("profile_superseded_by", .optional(profileSupersededBy)),
            ("error", .optional(error)),
        ])
    }
}
