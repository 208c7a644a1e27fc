import CatalogCore
import CatalogStore
import Foundation

extension ProfileSummary {
    /// The profile row (docs/json-schema.md): every listing of profiles prints this.
    func output(now: Date) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("type", .string("profile")),
            ("uuid", .string(uuid)),
            ("name", .string(name)),
            ("team_id", .optional(teamID)),
            ("team_name", .optional(teamName)),
            ("kind", .string(kind.rawValue)),
            ("platforms", .strings(platforms)),
            ("os", .string(os.rawValue)),
            ("bundle_id", .optional(bundleID)),
            ("application_identifier", .optional(applicationIdentifier)),
            ("creation_date", .optional(creationDate)),
            ("expiration_date", .optional(expirationDate)),
            ("effective_expiration_date", .optional(effectiveExpirationDate)),
            ("expiry_cause", .optional(expiryCause?.rawValue)),
            ("days_left", DaysLeft.json(until: effectiveExpirationDate, from: now)),
            ("device_count", .int(Int64(deviceCount))),
            ("provisions_all_devices", .bool(provisionsAllDevices)),
            ("aps_environment", .optional(apsEnvironment)),
            ("get_task_allow", .optional(getTaskAllow)),
            ("xcode_managed", .optional(xcodeManaged)),
            ("signature", .optional(signature?.rawValue)),
            ("der_profile", .optional(derProfile?.rawValue)),
            ("host", .optional(host)),
            ("path", .optional(path)),
            ("installed", .bool(installed)),
            ("superseded_by", .optional(supersededBy)),
        ]
        if let bundleIDMatch { pairs.append(("bundle_id_match", .string(bundleIDMatch.rawValue))) }
        return .object(pairs)
    }
}
