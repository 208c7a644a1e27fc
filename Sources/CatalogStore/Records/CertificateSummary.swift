import CatalogCore
import Foundation

/// A developer certificate as the catalogue lists it (`certificates`, `expiring`, `show`).
package struct CertificateSummary: Sendable, Equatable {
    package var sha1: String
    package var sha256: String
    package var commonName: String?
    package var type: CertificateType?
    package var teamID: String?
    package var organization: String?
    package var issuerCommonName: String?
    package var serial: String
    package var notBefore: Date?
    package var notAfter: Date?
    /// How many profiles list it (in the scope asked for); nil where not counted (`show`).
    package var profileCount: Int?
    /// In `expiring --include-superseded`: when only superseded profiles list it, one that
    /// supersedes them.
    package var supersededBy: String?
}

extension CertificateSummary {
    /// A row with the certificate columns (`type AS certificate_type`) and, in listings, `profile_count`.
    init(_ row: Row) throws {
        self.init(
            sha1: row.string("sha1") ?? "", sha256: row.string("sha256") ?? "", commonName: row.string("common_name"),
            type: try row.optionalValue("certificate_type", as: CertificateType.self), teamID: row.string("team_id"),
            organization: row.string("organization"), issuerCommonName: row.string("issuer_common_name"),
            serial: row.string("serial") ?? "", notBefore: row.date("not_before"), notAfter: row.date("not_after"),
            profileCount: row.int("profile_count"))
    }
}
