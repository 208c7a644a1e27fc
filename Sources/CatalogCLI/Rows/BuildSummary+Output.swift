import CatalogCore
import CatalogStore
import Foundation

extension BuildSummary {
    /// The keys of ``output(now:)`` in order (CSV's header for a stream; a test holds them equal).
    static let outputKeys = [
        "type", "bundle_id", "short_version", "build", "formatted_version", "source_kind", "host", "path", "app_path",
        "profile_uuid", "profile_name", "team_id", "platform", "os", "package_type", "archived_at", "signing_identity",
        "parent_bundle_id", "first_seen", "last_seen", "removed_at", "profile_kind", "launches_until",
        "launches_until_cause", "launches_until_executable", "launches_until_reason", "days_left", "profile_superseded_by",
        "error", "signing_status", "signing_certificate_name",
    ] + listKeys.flatMap { list in list.members.map { list.key + "." + $0 } }

    /// The row's lists of objects, each a CSV column per member key (docs/json-schema.md, "CSV"),
    /// empty cells when the list is empty: a listing's header is written before its rows.
    static let listKeys: [(key: String, members: [String])] = [
        ("executables", ["role", "path", "bundle_id", "architectures", "code_signature", "error"]),
        ("dsyms", ["path", "architectures", "error"]),
        ("signing_problems", ["code", "executable", "message"]),
    ]

    /// The keys `builds --uuid` adds after ``outputKeys``: where the binary is in the build.
    static let binaryMatchKeys = ["binary_uuid", "binary_arch", "binary_path", "binary_role", "dsym_path"]

    /// The build row (`builds`, `expiring --builds`, `devices UDID`).
    func output(now: Date) -> JSONValue {
        guard let match = binaryMatch, case .object(let pairs) = plainOutput(now: now) else { return plainOutput(now: now) }
        return .object(pairs + [
            ("binary_uuid", .string(match.uuid)),
            ("binary_arch", .optional(match.arch)),
            ("binary_path", .optional(match.executablePath)),
            ("binary_role", .optional(match.role)),
            ("dsym_path", .optional(match.dsymPath)),
        ])
    }

    private func plainOutput(now: Date) -> JSONValue {
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
            ("launches_until_executable", .optional(launchesUntilExecutable)),
            ("launches_until_reason", .optional(launchesUntilReason)),
            ("days_left", DaysLeft.json(until: launchesUntil, from: now)),
            ("profile_superseded_by", .optional(profileSupersededBy)),
            ("error", .optional(error)),
            ("signing_status", .optional(signing?.status)),
            ("signing_certificate_name", .optional(signing?.mainCertificateName)),
            ("executables", .array((signing?.executables ?? []).map(\.executableJSON))),
            ("dsyms", .array((signing?.dsyms ?? []).map(\.dsymJSON))),
            ("signing_problems", .array((signing?.problems ?? []).map(\.json))),
        ])
    }
}

extension CataloguedBinary {
    /// As decode's `executables[]`.
    var executableJSON: JSONValue {
        .object([
            ("role", .optional(role?.rawValue)),
            ("path", .string(path)),
            ("bundle_id", .optional(bundleID)),
            ("architectures", architecturesJSON),
            ("code_signature", signature.map { signature in
                .object([
                    ("identifier", .optional(signature.identifier)),
                    ("team_id", .optional(signature.teamID)),
                    ("cdhash", .optional(signature.cdhash)),
                    ("certificate_sha1", .optional(signature.certificateSHA1)),
                    ("certificate_name", .optional(signature.certificateName)),
                    ("entitlements", signature.entitlements),
                ])
            } ?? .null),
            ("error", .optional(error)),
        ])
    }

    /// As decode's `dsyms[]`.
    var dsymJSON: JSONValue {
        .object([("path", .string(path)), ("architectures", architecturesJSON), ("error", .optional(error))])
    }

    private var architecturesJSON: JSONValue {
        .array(architectures.map { .object([("arch", .string($0.arch)), ("uuid", .optional($0.uuid))]) })
    }
}
