import CatalogCore
import Foundation

extension CatalogQueries {
    /// Filters of `catalog profiles` (and the profile part of `expiring`).
    package struct ProfileFilter: Sendable {
        package var scope: LocationScope = .anyLive
        /// Only profiles in `scope` on this host (ignoring ASCII case), their `path` and `installed`
        /// that host's; nil: any host.
        package var host: String?
        package var teamID: String?
        package var bundleID: String?
        /// With `bundleID`: only profiles for exactly that id, not the wildcard ones that cover it.
        package var exactBundleID = false
        package var kind: ProfileKind?
        package var platform: PlatformName?
        /// true: expired at `now`; false: still valid at `now`; nil: either.
        package var expired: Bool?
        package var udid: String?
        /// SHA-1s of certificates (from `certificates(matching:)`): profiles listing any of them.
        package var certificateSHA1s: [String]?
        package var entitlementKey: String?
        package var entitlementValue: String?
        package var nameContains: String?
        /// true: only superseded profiles; false: only profiles nothing supersedes; nil: either.
        package var superseded: Bool?
        /// Only profiles whose signature has this verdict.
        package var signature: ProfileSignature.Status?
        /// Only profiles never verified (`--signature unchecked`); wins over `signature`.
        package var signatureUnchecked = false
        /// Effective expiry at or before this date (the `expiring` window's end).
        package var expiringBy: Date?
        /// Created on or before this moment (the end of `--as-of`'s day): a past date does not count
        /// profiles made after it. Nil: any.
        package var createdBy: Date?
        package var now = Date()
        package var limit: Int?

        package init() {}
    }

    package func profiles(_ filter: ProfileFilter) throws -> [ProfileSummary] {
        var profiles: [ProfileSummary] = []
        try forEachProfile(filter) { profiles.append($0) }
        return profiles
    }

    /// The profiles `filter` selects, each handed to `body` as it is read: a listing can print its
    /// first row before the last is found, and holds one row at a time.
    package func forEachProfile(_ filter: ProfileFilter, _ body: (ProfileSummary) throws -> Void) throws {
        let clauses = profileClauses(filter)
        var parameters = Self.hostParameters(filter.host) + clauses.parameters
        let name = "\(dialect.ignoringCase("p.name")), p.name, p.uuid"
        let order = filter.expiringBy != nil ? "p.effective_expiration_date, \(name)" : name
        let columns = Self.profileColumns(dialect, onHost: filter.host != nil)
        let location = Self.profileLocationJoin(dialect, onHost: filter.host != nil)
        var sql = "SELECT \(columns) FROM profiles p \(location) \(clauses.sql) ORDER BY \(order)"
        if let limit = filter.limit {
            sql += " LIMIT ?"
            parameters.append(.integer(Int64(limit)))
        }
        var json = StoredJSON()
        let wildcardsToo = filter.exactBundleID ? nil : filter.bundleID?.lowercased()
        var positions: ProfileSummary.Positions?
        try db.eachRow(sql, parameters) { row in
            let found = ProfileSummary.Positions.of(row, reusing: positions)
            positions = found
            var profile = try ProfileSummary(row, at: found, json: &json)
            if let wildcardsToo {
                profile.bundleIDMatch = profile.bundleID?.lowercased() == wildcardsToo ? .exact : .wildcard
            }
            try body(profile)
        }
    }

    /// The WHERE clause of the profiles `filter` selects, read `FROM profiles p` (its `limit` aside).
    func profileClauses(_ filter: ProfileFilter) -> QueryFilter {
        var clauses = QueryFilter()
        scope(filter.scope, host: filter.host, into: &clauses)
        // Team ids are upper-case letters and digits; people type them in any case.
        if let team = filter.teamID { clauses.add("p.team_id = ?", .text(team.uppercased())) }
        if let bundle = filter.bundleID {
            if filter.exactBundleID {
                clauses.add(dialect.fragment(dialect.equalsIgnoringCase("p.bundle_id")), .text(bundle))
            } else {
                // The id itself or any wildcard app id that covers it (`com.x.*`, `*`), through the
                // case-insensitive index; `bundle_id_match` says which.
                clauses.add(dialect.fragment(dialect.inJSONArrayIgnoringCase("p.bundle_id")),
                            .text(JSONValue.strings([bundle] + Self.wildcards(covering: bundle)).serialized()))
            }
        }
        if let kind = filter.kind { clauses.add("p.kind = ?", .text(kind.rawValue)) }
        if let created = filter.createdBy { clauses.add("(p.creation_date IS NULL OR p.creation_date <= ?)", SQLValue(created)) }
        if let platform = filter.platform {
            // An absent Platform key means iOS.
            clauses.add(dialect.fragment("""
                (EXISTS (SELECT 1 FROM \(dialect.jsonArrayTable("p.platforms", as: "written"))
                         WHERE written.value IN (\(dialect.jsonArrayElements("?"))))
                 OR (p.platforms = '[]' AND ?))
                """), .text(JSONValue.strings(platform.profileValues).serialized()), SQLValue(platform == .iOS))
        }
        if let expired = filter.expired {
            if expired {
                clauses.add("p.effective_expiration_date < ?", SQLValue(filter.now))
            } else {
                clauses.add("p.effective_expiration_date >= ?", SQLValue(filter.now))
            }
        }
        if let by = filter.expiringBy { clauses.add("p.effective_expiration_date <= ?", SQLValue(by)) }
        if let udid = filter.udid {
            clauses.add(dialect.fragment("p.id IN (\(deviceProfileIDs))"), .text(udid), .text(udid.uppercased()), .text(udid.lowercased()))
        }
        if let sha1s = filter.certificateSHA1s {
            clauses.add(dialect.fragment("""
                p.id IN (SELECT profile_id FROM profile_certificates
                         WHERE certificate_sha1 IN (\(dialect.jsonArrayElements("?"))))
                """), .text(JSONValue.strings(sha1s).serialized()))
        }
        if let key = filter.entitlementKey {
            if let value = filter.entitlementValue {
                // VALUE matches a JSON literal (true, 42, ["a"]) or a string, or one member of an
                // array entitlement (keychain-access-groups=TEAM.shared).
                clauses.add(dialect.fragment("""
                    p.id IN (SELECT e.profile_id FROM entitlements e WHERE e.key = ? AND (
                        \(dialect.entitlementValueMatches)))
                    """), .text(key), .text(value), .text(JSONValue.string(value).serialized()),
                    .text(value), .text(JSONValue.string(value).serialized()), .text(value))
            } else {
                clauses.add("p.id IN (SELECT profile_id FROM entitlements WHERE key = ?)", .text(key))
            }
        }
        if filter.signatureUnchecked {
            clauses.add("p.signature IS NULL")
        } else if let signature = filter.signature {
            clauses.add("p.signature = ?", .text(signature.rawValue))
        }
        if let name = filter.nameContains {
            clauses.add(dialect.fragment(dialect.containsIgnoringCase("p.name")), .text(name))
        }
        if let superseded = filter.superseded {
            clauses.add(dialect.fragment(Self.supersededBy(dialect) + (superseded ? " IS NOT NULL" : " IS NULL")))
        }
        return clauses
    }

    /// The wildcard app ids that cover `bundleID`: `*`, then `com.*`, `com.x.*` for `com.x.app`.
    static func wildcards(covering bundleID: String) -> [String] {
        var patterns = ["*"]
        var prefix = ""
        for part in bundleID.split(separator: ".", omittingEmptySubsequences: false).dropLast() {
            prefix += part + "."
            patterns.append(prefix + "*")
        }
        return patterns
    }

    /// Certificates whose notAfter falls in [`from`, `to`] (any time up to `to` with `includeExpired`)
    /// that at least one profile in `scope` (of `teamID`, on `host`) uses, with how many such
    /// profiles; a certificate only superseded profiles use is marked with one that supersedes them.
    package func expiringCertificates(from: Date, to: Date, includeExpired: Bool, scope: LocationScope,
                                      teamID: String?, host: String? = nil) throws -> [CertificateSummary] {
        var users = ProfileFilter()
        users.scope = scope
        users.teamID = teamID
        users.host = host
        return try certificatesExpiring(from: from, to: to, includeExpired: includeExpired).compactMap {
            try counted($0, usedBy: users, includeSuperseded: true)
        }
    }

    /// Certificates whose notAfter falls in [`from`, `to`] (any time up to `to` with `includeExpired`),
    /// soonest first, not yet counted (`profileCount` nil): counting the profiles of a certificate
    /// that signs thousands is the slow part, which a streaming listing does when it gets there
    /// (``counted(_:usedBy:includeSuperseded:)``).
    package func certificatesExpiring(from: Date, to: Date, includeExpired: Bool) throws -> [CertificateSummary] {
        var clauses = QueryFilter()
        clauses.add("c.not_after <= ?", SQLValue(to))
        if !includeExpired { clauses.add("c.not_after >= ?", SQLValue(from)) }
        return try db.rows("""
            SELECT c.sha1, c.common_name, c.type AS certificate_type, c.team_id, c.organization, c.issuer_common_name,
                   c.serial, c.not_before, c.not_after, c.sha256
            FROM certificates c \(clauses.sql)
            ORDER BY c.not_after, c.sha1
            """, clauses.parameters).map(CertificateSummary.init)
    }

    /// `certificate` as a listing of the profiles `users` selects (its scope, host, team, kind and
    /// creation bound; its other filters aside) shows it: counted by the profiles that list it and
    /// that nothing supersedes — nil when there are none — or, with `includeSuperseded`, by all of them, then
    /// marked `supersededBy` (one that supersedes them) when only superseded profiles list it.
    package func counted(_ certificate: CertificateSummary, usedBy users: ProfileFilter,
                         includeSuperseded: Bool) throws -> CertificateSummary? {
        var filter = ProfileFilter()
        filter.scope = users.scope
        filter.host = users.host
        filter.teamID = users.teamID
        filter.kind = users.kind
        filter.createdBy = users.createdBy
        filter.certificateSHA1s = [certificate.sha1]
        let clauses = profileClauses(filter)
        guard let row = try db.firstRow("""
            SELECT count(*) AS n, count(CASE WHEN superseded_by IS NULL THEN 1 END) AS current,
                   min(superseded_by) AS superseded_by
            FROM (SELECT \(Self.supersededBy(dialect)) AS superseded_by FROM profiles p \(clauses.sql)) users
            """, clauses.parameters) else { return nil }
        let all = row.int("n") ?? 0, current = row.int("current") ?? 0
        guard includeSuperseded ? all > 0 : current > 0 else { return nil }
        var counted = certificate
        counted.profileCount = includeSuperseded ? all : current
        counted.supersededBy = current == 0 ? row.string("superseded_by") : nil
        return counted
    }

    /// Everything known about one profile, or nil when the UUID is not catalogued; with `host`, its
    /// locations and builds are that host's only. The builds' signing problems are judged at `asOf`.
    package func profileDetail(uuid: String, host: String? = nil, asOf: Date = Date()) throws -> ProfileDetail? {
        let key = SQLValue.text(uuid.uppercased())
        guard let row = try db.firstRow("""
            SELECT id, uuid, name, app_id_name, team_id, team_name, team_identifiers, app_id_prefixes, platforms, kind,
                   xcode_managed, ppq_check, creation_date, expiration_date, effective_expiration_date, expiry_cause,
                   application_identifier, bundle_id, aps_environment, get_task_allow, provisions_all_devices,
                   device_count, certificate_count, time_to_live, version, sha256, first_seen, last_seen,
                   signature, signature_reason, der_profile, der_profile_differences
            FROM profiles WHERE uuid = ?
            """, [key]) else { return nil }
        let id = SQLValue(row.int64("id"))
        var json = StoredJSON()
        let entitlements = try db.rows("SELECT key, value_json FROM entitlements WHERE profile_id = ? ORDER BY key", [id]).map {
            ProfileDetail.Entitlement(key: $0.string("key") ?? "", value: json.value($0.string("value_json") ?? "null"))
        }
        let certificates = try db.rows("""
            SELECT c.sha1, c.sha256, c.common_name, c.type AS certificate_type, c.team_id, c.organization,
                   c.issuer_common_name, c.serial, c.not_before, c.not_after
            FROM profile_certificates pc JOIN certificates c ON c.sha1 = pc.certificate_sha1
            WHERE pc.profile_id = ? ORDER BY c.not_after, c.sha1
            """, [id]).map(CertificateSummary.init)
        let undecodable = try db.rows("""
            SELECT position, size, sha1, sha256, reason
            FROM profile_undecodable_certificates WHERE profile_uuid = ? ORDER BY position
            """, [key]).map {
            UndecodableCertificate(index: $0.int("position") ?? 0, size: $0.int("size") ?? 0, sha1: $0.string("sha1") ?? "",
                                   sha256: $0.string("sha256") ?? "", reason: $0.string("reason") ?? "")
        }
        let devices = try db.rows("""
            SELECT d.udid FROM profiles p, \(dialect.jsonArrayTable("p.device_ids", as: "listed")), devices d
            WHERE p.id = ? AND d.id = CAST(listed.value AS bigint) ORDER BY d.udid
            """, [id]).compactMap { $0.string("udid") }
        let (onHost, hosts) = self.onHost("l.host", host)
        let locations = try db.rows("""
            SELECT NULLIF(l.host, '') AS host, l.path, l.container_kind, l.container_path, l.size, l.mtime, l.first_seen,
                   l.last_seen, l.removed_at, l.error
            FROM profile_locations l WHERE l.profile_uuid = ?\(onHost) ORDER BY l.removed_at IS NOT NULL, l.path, l.host
            """, [key] + hosts).map(ProfileLocation.init)
        var buildFilter = BuildFilter()
        buildFilter.profileUUID = uuid
        buildFilter.presence = .any
        buildFilter.host = host
        buildFilter.now = asOf
        let builds = try self.builds(buildFilter)
        // Renewals as README "Renewals" defines them (and `supersededBy` and the ingest count use):
        // same team, application identifier, kind and platforms; the later effective expiry renews,
        // when its signature is trusted at least as much as the other's.
        let renewals = try db.rows("""
            SELECT o.uuid, o.name, o.creation_date, o.expiration_date, o.effective_expiration_date,
                   o.effective_expiration_date < p.effective_expiration_date AS older
            FROM profiles p JOIN profiles o
              ON \(dialect.nullSafeEquals("o.team_id", "p.team_id"))
             AND \(dialect.nullSafeEquals("o.application_identifier", "p.application_identifier"))
             AND o.kind = p.kind AND o.platforms = p.platforms
             AND ((o.effective_expiration_date > p.effective_expiration_date
                   AND \(SignatureTrust.renews("o.signature", "p.signature")))
                  OR (o.effective_expiration_date < p.effective_expiration_date
                      AND \(SignatureTrust.renews("p.signature", "o.signature"))))
            WHERE p.uuid = ? ORDER BY o.effective_expiration_date, o.uuid
            """, [key]).map(ProfileRenewal.init)
        return ProfileDetail(
            uuid: row.string("uuid") ?? uuid, name: row.string("name") ?? "", appIDName: row.string("app_id_name"),
            teamID: row.string("team_id"), teamName: row.string("team_name"),
            teamIdentifiers: json.strings(row.string("team_identifiers")),
            applicationIdentifierPrefixes: json.strings(row.string("app_id_prefixes")),
            platforms: json.strings(row.string("platforms")), kind: try row.value("kind", as: ProfileKind.self),
            xcodeManaged: row.bool("xcode_managed"), ppqCheck: row.bool("ppq_check"),
            creationDate: row.date("creation_date"), expirationDate: row.date("expiration_date"),
            effectiveExpirationDate: row.date("effective_expiration_date"),
            expiryCause: try row.optionalValue("expiry_cause", as: ProvisioningProfile.ExpiryCause.self),
            applicationIdentifier: row.string("application_identifier"), bundleID: row.string("bundle_id"),
            apsEnvironment: row.string("aps_environment"), getTaskAllow: row.bool("get_task_allow"),
            provisionsAllDevices: row.bool("provisions_all_devices") ?? false, deviceCount: row.int("device_count") ?? 0,
            certificateCount: row.int("certificate_count") ?? 0, timeToLive: row.int("time_to_live"),
            version: row.int("version"), sha256: row.string("sha256") ?? "",
            firstSeen: row.date("first_seen"), lastSeen: row.date("last_seen"),
            signature: try row.optionalValue("signature", as: ProfileSignature.Status.self),
            signatureReason: row.string("signature_reason"),
            derProfile: try row.optionalValue("der_profile", as: DERProfileCheck.Status.self),
            derProfileDifferences: json.strings(row.string("der_profile_differences")),
            entitlements: entitlements, certificates: certificates, undecodableCertificates: undecodable,
            devices: devices, locations: locations, builds: builds, renewals: renewals)
    }

    /// The UUID of the profile last seen at `path` (a file or an embedded location), on `host` when
    /// given, else on any host (a present location first, then by host).
    package func profileUUID(atPath path: String, host: String? = nil) throws -> String? {
        let (onHost, hosts) = self.onHost("host", host)
        return try db.firstRow("""
            SELECT profile_uuid FROM profile_locations WHERE path = ?\(onHost) ORDER BY removed_at IS NOT NULL, host
            """, [.text(path)] + hosts)?.string("profile_uuid")
    }
}

extension CatalogQueries {
    /// A profile's stored signature verdict and the paths it is present at (for `catalog verify`).
    package struct StoredSignature: Sendable, Equatable {
        package var uuid: String
        /// nil when never verified.
        package var signature: ProfileSignature.Status?
        package var reason: String?
        package var derProfile: DERProfileCheck.Status?
        /// Live locations, standalone files first.
        package var paths: [String]
    }

    package func storedSignature(uuid: String) throws -> StoredSignature? {
        let key = SQLValue.text(uuid.uppercased())
        guard let row = try db.firstRow("SELECT uuid, signature, signature_reason, der_profile FROM profiles WHERE uuid = ?",
                                          [key]) else { return nil }
        let paths = try db.rows("""
            SELECT path FROM profile_locations WHERE profile_uuid = ? AND removed_at IS NULL
            ORDER BY container_kind <> 'standalone', path
            """, [key]).compactMap { $0.string("path") }
        return StoredSignature(uuid: row.string("uuid") ?? uuid,
                               signature: try row.optionalValue("signature", as: ProfileSignature.Status.self),
                               reason: row.string("signature_reason"),
                               derProfile: try row.optionalValue("der_profile", as: DERProfileCheck.Status.self), paths: paths)
    }
}
