import CatalogCore
import Foundation

extension CatalogQueries {
    /// An installed profile file `catalog prune` may remove, with what makes it removable.
    package struct PruneCandidate: Sendable, Equatable {
        package var path: String
        package var uuid: String
        package var name: String
        package var teamID: String?
        package var kind: String
        package var effectiveExpirationDate: String
        /// SHA-256 of the file when it was catalogued: a file that no longer hashes to it has
        /// changed since and is left alone.
        package var contentSHA256: String?
        package var expired: Bool
        package var supersededBy: String?
        /// The profile of its team and application identifier that expires last, of those whose
        /// signature could renew it (``SignatureTrust``): never pruned.
        package var isNewestOfAppID: Bool
    }

    /// `host`'s present standalone profile files that are expired at `now` or superseded (README,
    /// "Renewals"), soonest expiry first. Paths inside builds, and other hosts' files, are never
    /// candidates: prune removes files from the machine it runs on.
    package func pruneCandidates(now: Date, host: String) throws -> [PruneCandidate] {
        try db.rows("""
            SELECT l.path, l.content_sha256, p.uuid, p.name, p.team_id, p.kind, p.effective_expiration_date,
                   p.effective_expiration_date < ? AS expired,
                   \(Self.supersededBy(dialect)) AS superseded_by,
                   NOT EXISTS (SELECT 1 FROM profiles o
                               WHERE \(dialect.nullSafeEquals("o.team_id", "p.team_id"))
                                 AND \(dialect.nullSafeEquals("o.application_identifier", "p.application_identifier"))
                                 AND o.uuid <> p.uuid AND (o.effective_expiration_date > p.effective_expiration_date
                                      OR (o.effective_expiration_date = p.effective_expiration_date AND o.uuid > p.uuid))
                                 AND \(SignatureTrust.renews("o.signature", "p.signature"))
                                 AND EXISTS (SELECT 1 FROM profile_locations ol
                                             WHERE ol.profile_uuid = o.uuid AND ol.removed_at IS NULL)) AS newest
            FROM profile_locations l JOIN profiles p ON p.uuid = l.profile_uuid
            WHERE l.container_kind = 'standalone' AND l.removed_at IS NULL AND l.host = ?
            ORDER BY p.effective_expiration_date, l.path
            """, [SQLValue(now), .text(host)]).compactMap { row in
            let candidate = PruneCandidate(
                path: row.string("path") ?? "", uuid: row.string("uuid") ?? "", name: row.string("name") ?? "",
                teamID: row.string("team_id"), kind: row.string("kind") ?? "",
                effectiveExpirationDate: row.string("effective_expiration_date") ?? "",
                contentSHA256: row.string("content_sha256"), expired: row.int("expired") == 1,
                supersededBy: row.string("superseded_by"), isNewestOfAppID: row.int("newest") == 1)
            return candidate.expired || candidate.supersededBy != nil ? candidate : nil
        }
    }
}
