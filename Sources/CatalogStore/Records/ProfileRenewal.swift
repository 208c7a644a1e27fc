import Foundation

/// Another profile of the same team, application identifier, kind and platforms with a different
/// effective expiry (README, "Renewals"): one this profile renews, or one that renews it.
package struct ProfileRenewal: Sendable, Equatable {
    package var uuid: String
    package var name: String
    package var creationDate: Date?
    package var expirationDate: Date?
    package var effectiveExpirationDate: Date?
    package var relation: Relation

    package enum Relation: String, Sendable {
        /// It expires earlier: this profile renews it.
        case older
        /// It expires later: it renews this profile.
        case newer
    }
}

extension ProfileRenewal {
    /// A row with the other profile's columns and `older` (its effective expiry is earlier).
    init(_ row: Row) {
        self.init(
            uuid: row.string("uuid") ?? "", name: row.string("name") ?? "", creationDate: row.date("creation_date"),
            expirationDate: row.date("expiration_date"), effectiveExpirationDate: row.date("effective_expiration_date"),
            relation: row.bool("older") == true ? .older : .newer)
    }
}
