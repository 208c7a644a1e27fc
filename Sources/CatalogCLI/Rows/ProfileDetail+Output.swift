import CatalogCore
import CatalogStore
import Foundation

extension ProfileDetail {
    /// The `show` object (docs/json-schema.md, "show").
    func output(now: Date) -> JSONValue {
        .object([
            ("type", .string("profile")),
            ("uuid", .string(uuid)),
            ("name", .string(name)),
            ("app_id_name", .optional(appIDName)),
            ("team_id", .optional(teamID)),
            ("team_name", .optional(teamName)),
            ("team_identifiers", .strings(teamIdentifiers)),
            ("application_identifier_prefixes", .strings(applicationIdentifierPrefixes)),
            ("platforms", .strings(platforms)),
            ("os", .string(os.rawValue)),
            ("kind", .string(kind.rawValue)),
            ("xcode_managed", .optional(xcodeManaged)),
            ("ppq_check", .optional(ppqCheck)),
            ("creation_date", .optional(creationDate)),
            ("expiration_date", .optional(expirationDate)),
            ("effective_expiration_date", .optional(effectiveExpirationDate)),
            ("expiry_cause", .optional(expiryCause?.rawValue)),
            ("days_left", DaysLeft.json(until: effectiveExpirationDate, from: now)),
            ("application_identifier", .optional(applicationIdentifier)),
            ("bundle_id", .optional(bundleID)),
            ("aps_environment", .optional(apsEnvironment)),
            ("get_task_allow", .optional(getTaskAllow)),
            ("provisions_all_devices", .bool(provisionsAllDevices)),
            ("device_count", .int(Int64(deviceCount))),
            ("certificate_count", .int(Int64(certificateCount))),
            ("time_to_live", .optional(timeToLive)),
            ("version", .optional(version)),
            ("sha256", .string(sha256)),
            ("first_seen", .optional(firstSeen)),
            ("last_seen", .optional(lastSeen)),
            ("signature", .optional(signature?.rawValue)),
            ("signature_reason", .optional(signatureReason)),
            ("der_profile", .optional(derProfile?.rawValue)),
            ("der_profile_differences", .strings(derProfileDifferences)),
            ("entitlements", .object(entitlements.map { ($0.key, $0.value) })),
            ("certificates", .array(certificates.map { $0.showOutput(now: now) })),
            ("undecodable_certificates", .array(undecodableCertificates.map(\.json))),
            ("devices", .strings(devices)),
            ("duplicate_devices", .int(Int64(duplicateDevices))),
            ("locations", .array(locations.map(\.output))),
            ("builds", .array(builds.map {
                $0.output(now: now).picking(["bundle_id", "short_version", "build", "formatted_version", "source_kind",
                                             "host", "path", "app_path", "archived_at", "removed_at", "launches_until",
                                             "launches_until_cause", "launches_until_executable", "launches_until_reason",
                                             "signing_status",
                                             "signing_certificate_name", "executables", "dsyms", "signing_problems"])
            })),
            ("renewals", .array(renewals.map(\.output))),
        ])
    }
}

extension ProfileLocation {
    /// An entry of `show`'s `locations`.
    var output: JSONValue {
        .object([
            ("host", .optional(host)),
            ("path", .string(path)),
            ("container_kind", .string(containerKind.rawValue)),
            ("container_path", .optional(containerPath)),
            ("size", .optional(size)),
            ("mtime", .optional(mtime)),
            ("first_seen", .optional(firstSeen)),
            ("last_seen", .optional(lastSeen)),
            ("removed_at", .optional(removedAt)),
            ("error", .optional(error)),
        ])
    }
}

extension ProfileRenewal {
    /// An entry of `show`'s `renewals`.
    var output: JSONValue {
        .object([
            ("uuid", .string(uuid)),
            ("name", .string(name)),
            ("creation_date", .optional(creationDate)),
            ("expiration_date", .optional(expirationDate)),
            ("effective_expiration_date", .optional(effectiveExpirationDate)),
            ("relation", .string(relation.rawValue)),
        ])
    }
}
