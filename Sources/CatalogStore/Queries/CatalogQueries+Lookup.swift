import CatalogCore
import Foundation

// Turning what a person typed into catalogue keys: certificates by digest, prefix or name, and
// profiles by UUID or name.
extension CatalogQueries {
    /// A certificate a lookup found: its SHA-1 (the key profiles link by) and its common name.
    package struct CertificateMatch: Sendable, Equatable {
        package var sha1: String
        package var commonName: String?
    }

    /// Certificates matching `text`: a SHA-1 or SHA-256 in either case, with spaces or colons as
    /// Keychain Access and openssl print them, or a prefix of at least 8 hex digits of either;
    /// otherwise (or when no digest matches) common names containing `text`, case-insensitively.
    package func certificates(matching text: String) throws -> [CertificateMatch] {
        let hex = text.filter { $0 != ":" && $0 != " " }.uppercased()
        var matches: [CertificateMatch] = []
        if hex.count >= 8, hex.allSatisfy(\.isHexDigit) {
            // A range on each digest index: `prefix` ≤ digest < `prefix` followed by the highest digit.
            matches = try db.rows("""
                SELECT sha1, common_name FROM certificates
                WHERE (sha1 >= ?1 AND sha1 <= ?1 || 'G') OR (sha256 >= ?1 AND sha256 <= ?1 || 'G')
                ORDER BY sha1
                """, [.text(hex)]).map { CertificateMatch(sha1: $0.string("sha1") ?? "", commonName: $0.string("common_name")) }
        }
        if matches.isEmpty {
            matches = try db.rows("""
                SELECT sha1, common_name FROM certificates WHERE \(dialect.containsIgnoringCase("common_name"))
                ORDER BY \(dialect.ignoringCase("common_name")), common_name, sha1
                """, [.text(text)]).map { CertificateMatch(sha1: $0.string("sha1") ?? "", commonName: $0.string("common_name")) }
        }
        return matches
    }

    /// A profile a name lookup found.
    package struct ProfileMatch: Sendable, Equatable {
        package var uuid: String
        package var name: String
    }

    /// Profiles named exactly `name` (ignoring case), else those whose name contains it.
    package func profiles(named name: String) throws -> [ProfileMatch] {
        func matches(_ sql: String) throws -> [ProfileMatch] {
            try db.rows(sql, [.text(name)]).map { ProfileMatch(uuid: $0.string("uuid") ?? "", name: $0.string("name") ?? "") }
        }
        let exact = try matches("""
            SELECT uuid, name FROM profiles WHERE \(dialect.equalsIgnoringCase("name")) ORDER BY creation_date DESC, uuid
            """)
        if !exact.isEmpty { return exact }
        return try matches("SELECT uuid, name FROM profiles WHERE \(dialect.containsIgnoringCase("name")) ORDER BY \(dialect.ignoringCase("name")), name, uuid")
    }
}

extension CatalogQueries {
    /// The UUIDs of profiles whose UUID starts with `digits` (hex digits only, any case; the hyphens
    /// of the UUID's layout are put back), in UUID order.
    package func profileUUIDs(startingWith digits: String) throws -> [ProfileMatch] {
        var prefix = ""
        for (index, digit) in digits.uppercased().enumerated() {
            if [8, 12, 16, 20].contains(index) { prefix += "-" }
            prefix.append(digit)
        }
        // A range on the UUID index: `prefix` ≤ uuid < `prefix` followed by the highest digit.
        return try db.rows("""
            SELECT uuid, name FROM profiles WHERE uuid >= ?1 AND uuid <= ?1 || 'G' ORDER BY uuid
            """, [.text(prefix)]).map { ProfileMatch(uuid: $0.string("uuid") ?? "", name: $0.string("name") ?? "") }
    }

    /// The build catalogued at `path` (a container: `.app`, `.ipa`, `.xcarchive`), its top-level app
    /// rather than a nested one, a present one before a removed one; on `host` when given.
    package func build(atPath path: String, host: String? = nil) throws -> BuildSummary? {
        let (onHost, hosts) = self.onHost("b.host", host)
        return try db.firstRow("""
            SELECT \(Self.buildColumns(dialect)) FROM builds b LEFT JOIN profiles p ON p.uuid = b.profile_uuid
            WHERE b.path = ? AND b.parent_build_id IS NULL\(onHost)
            ORDER BY b.removed_at IS NOT NULL, b.app_path, b.host
            """, [.text(path)] + hosts).map { try BuildSummary($0) }
    }
}
