import CatalogCore
import CatalogStore
import Foundation

extension CertificateSummary {
    /// The keys of ``output(now:)`` in order (CSV's header for a stream; a test holds them equal).
    static let outputKeys = [
        "type", "sha1", "common_name", "certificate_type", "team_id", "organization", "issuer_common_name", "serial",
        "not_before", "not_after", "days_left", "profile_count", "sha256",
    ]

    /// The certificate row (`certificates`, `expiring`).
    func output(now: Date) -> JSONValue {
        .object([
            ("type", .string("certificate")),
            ("sha1", .string(sha1)),
            ("common_name", .optional(commonName)),
            ("certificate_type", .optional(type?.rawValue)),
            ("team_id", .optional(teamID)),
            ("organization", .optional(organization)),
            ("issuer_common_name", .optional(issuerCommonName)),
            ("serial", .string(serial)),
            ("not_before", .optional(notBefore)),
            ("not_after", .optional(notAfter)),
            ("days_left", DaysLeft.json(until: notAfter, from: now)),
            ("profile_count", .optional(profileCount)),
            ("sha256", .string(sha256)),
        ])
    }

    /// The certificate row of `expiring`: with `superseded_by`, as its profile rows have.
    func expiringOutput(now: Date) -> JSONValue {
        guard case .object(var pairs) = output(now: now) else { return output(now: now) }
        pairs.append(("superseded_by", .optional(supersededBy)))
        return .object(pairs)
    }

    /// A certificate inside `show`: the profile's, so without `type` and a count.
    func showOutput(now: Date) -> JSONValue {
        output(now: now).picking(["common_name", "certificate_type", "team_id", "organization", "issuer_common_name",
                                  "serial", "not_before", "not_after", "days_left", "sha1", "sha256"])
    }
}
