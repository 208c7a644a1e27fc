import CatalogCore
import Foundation

/// The read side of the catalogue: each query is one method returning typed, `Sendable` records
/// (`ProfileSummary`, `BuildSummary`, …); how they are printed is the CLI's business. The SQL lives
/// here, next to the schema it reads.
package struct CatalogQueries {
    let db: any QueryExecutor

    package init(_ db: Connection) {
        self.db = db
    }

    package init(_ db: PostgreSQLConnection) {
        self.db = db
    }

    var dialect: SQLDialect { db.dialect }

    /// The ids of the profiles that list one device, its UDID bound three times (as given, upper
    /// and lower case): a subquery for `id IN (…)`. Each device's lists of profile ids are in
    /// `device_profiles` (migration 0017).
    var deviceProfileIDs: String {
        """
        SELECT CAST(listed.value AS bigint) FROM devices d, device_profiles dp, \(dialect.jsonArrayTable("dp.profile_ids", as: "listed"))
        WHERE dp.device_id = d.id AND d.udid IN (?, ?, ?)
        """
    }

    /// Where a profile may be found for it to count.
    package enum LocationScope: Sendable {
        /// A live standalone file (an installed profile).
        case installed
        /// Any live location, standalone or embedded in a build.
        case anyLive
        /// Every location gone.
        case removed
        /// Present or not.
        case any
    }

    /// Which builds count: present ones (the default), only removed ones, or both — what `--removed`
    /// and `--include-removed` mean for every command.
    package enum Presence: Sendable {
        case present
        case removed
        case any
    }

    /// The profile columns every profile listing shows, read `FROM profiles p` and
    /// ``profileLocationJoin(_:onHost:)``. `path` is one present location (a standalone file first,
    /// then by path and host) and `host` that location's host (NULL for a SQLite catalogue's unnamed
    /// host ''); with `onHost`, that location and `installed` are that host's, each `?` of the two
    /// `onHost` fragments (this one's first) bound to the host name (``hostParameters(_:)``).
    static func profileColumns(_ dialect: SQLDialect, onHost: Bool = false) -> String {
        let host = onHost ? hostCondition(dialect, "l.host") : ""
        return """
        p.uuid, p.name, p.team_id, p.team_name, p.kind, p.platforms, p.bundle_id, p.application_identifier,
        p.creation_date, p.expiration_date, p.effective_expiration_date, p.expiry_cause, p.device_count,
        p.provisions_all_devices, p.aps_environment, p.get_task_allow, p.xcode_managed,
        p.signature, p.der_profile, NULLIF(shown.host, '') AS host, shown.path,
        EXISTS (SELECT 1 FROM profile_locations l WHERE l.profile_uuid = p.uuid AND l.removed_at IS NULL
                AND l.container_kind = 'standalone'\(host)) AS installed,
        \(supersededBy(dialect)) AS superseded_by
        """
    }

    /// The location ``profileColumns(_:onHost:)`` shows, `shown`.
    static func profileLocationJoin(_ dialect: SQLDialect, onHost: Bool = false) -> String {
        let host = onHost ? hostCondition(dialect, "l.host") : ""
        return dialect.firstLocationJoin(where: "l.profile_uuid = p.uuid AND l.removed_at IS NULL\(host)",
                                         orderBy: "l.container_kind <> 'standalone', l.path, l.host", as: "shown")
    }

    /// The parameters of the `onHost` fragments of ``profileColumns(_:onHost:)`` and
    /// ``profileLocationJoin(_:onHost:)``.
    static func hostParameters(_ host: String?) -> [SQLValue] {
        host.map { Array(repeating: SQLValue.text($0), count: 2) } ?? []
    }

    /// The profile that supersedes `p`, or NULL — the one definition of "superseded" (README,
    /// "Renewals"): another present profile (a location not removed) of the same team, application
    /// identifier (wildcards included, compared as written), kind and platform, with a later
    /// effective expiry and a signature trusted at least as much as `p`'s (``SignatureTrust``); the
    /// latest such profile is named (of two renewals expiring at the same second, either: ordering
    /// on more than the expiry would sort every group instead of reading the covering index
    /// backwards).
    static func supersededBy(_ dialect: SQLDialect) -> String {
        """
        (SELECT o.uuid FROM profiles o
         WHERE \(dialect.nullSafeEquals("o.team_id", "p.team_id"))
           AND \(dialect.nullSafeEquals("o.application_identifier", "p.application_identifier"))
           AND o.kind = p.kind AND o.effective_expiration_date > p.effective_expiration_date
           AND o.platforms = p.platforms AND \(SignatureTrust.renews("o.signature", "p.signature"))
           AND EXISTS (SELECT 1 FROM profile_locations ol WHERE ol.profile_uuid = o.uuid AND ol.removed_at IS NULL)
         ORDER BY o.effective_expiration_date DESC LIMIT 1)
        """
    }

    /// ` AND column` (or `keyword`) is the host asked for, ignoring ASCII case as DNS does, and its
    /// parameter; nothing when no host is asked for.
    func onHost(_ column: String, _ host: String?, _ keyword: String = "AND") -> (sql: String, parameters: [SQLValue]) {
        guard let host else { return ("", []) }
        return (Self.hostCondition(dialect, column, keyword), [.text(host)])
    }

    /// ` AND column` (or `keyword`) equals the bound host name, ignoring ASCII case.
    static func hostCondition(_ dialect: SQLDialect, _ column: String, _ keyword: String = "AND") -> String {
        " \(keyword) " + dialect.equalsIgnoringCase(column)
    }

    /// Profiles present in `scope`; with `host`, in that scope on that host (compared ignoring
    /// ASCII case): `.removed` is then every location on the host gone, `.any` a location on it at all.
    func scope(_ scope: LocationScope, host: String?, into filter: inout QueryFilter) {
        let (onHost, hosts) = self.onHost("l.host", host)
        func add(_ sql: String, _ values: [SQLValue]) {
            filter.add(dialect.fragment(sql), values)
        }
        switch scope {
        case .installed:
            add("""
                EXISTS (SELECT 1 FROM profile_locations l WHERE l.profile_uuid = p.uuid
                        AND l.removed_at IS NULL AND l.container_kind = 'standalone'\(onHost))
                """, hosts)
        case .anyLive:
            add("EXISTS (SELECT 1 FROM profile_locations l WHERE l.profile_uuid = p.uuid AND l.removed_at IS NULL\(onHost))", hosts)
        case .removed:
            if host != nil {
                add("EXISTS (SELECT 1 FROM profile_locations l WHERE l.profile_uuid = p.uuid\(onHost))", hosts)
            }
            add("""
                NOT EXISTS (SELECT 1 FROM profile_locations l WHERE l.profile_uuid = p.uuid AND l.removed_at IS NULL\(onHost))
                """, hosts)
        case .any:
            if host != nil {
                add("EXISTS (SELECT 1 FROM profile_locations l WHERE l.profile_uuid = p.uuid\(onHost))", hosts)
            }
        }
    }
}
