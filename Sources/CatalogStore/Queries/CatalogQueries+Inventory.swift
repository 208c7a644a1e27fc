import CatalogCore
import Foundation

// Certificates, devices, ingest runs, errors and overall statistics.
extension CatalogQueries {
    /// Filters of `catalog certificates`.
    package struct CertificateFilter: Sendable {
        /// notAfter at or after / at or before these dates (the `--expiring` window).
        package var notAfterFrom: Date?
        package var notAfterTo: Date?
        package var teamID: String?
        /// Any of these types.
        package var types: [CertificateType]?
        /// true: expired at `now`; false: still valid; nil: either.
        package var expired: Bool?
        package var nameContains: String?
        /// Only certificates a profile this filter selects lists (`--in-use`: installed profiles),
        /// each counted by those profiles, superseded ones included, as the report counts them.
        package var usedBy: ProfileFilter?
        package var now = Date()

        package init() {}
    }

    /// A certificate's team: its subject's OU, else (a certificate without one) the team of the
    /// profiles that carry it.
    static let certificateTeam = """
        coalesce(c.team_id, (SELECT min(p.team_id) FROM profile_certificates pc JOIN profiles p ON p.id = pc.profile_id
                             WHERE pc.certificate_sha1 = c.sha1))
        """

    package func certificates(_ filter: CertificateFilter) throws -> [CertificateSummary] {
        var clauses = QueryFilter()
        if let from = filter.notAfterFrom { clauses.add("c.not_after >= ?", SQLValue(from)) }
        if let to = filter.notAfterTo { clauses.add("c.not_after <= ?", SQLValue(to)) }
        if let teamID = filter.teamID { clauses.add(dialect.fragment("\(Self.certificateTeam) = ?"), .text(teamID.uppercased())) }
        if let types = filter.types { clauses.add(dialect.fragment("c.type IN (\(dialect.jsonArrayElements("?")))"), .text(JSONValue.strings(types.map(\.rawValue)).serialized())) }
        if let expired = filter.expired {
            clauses.add(expired ? "c.not_after < ?" : "c.not_after >= ?", SQLValue(filter.now))
        }
        if let name = filter.nameContains { clauses.add(dialect.fragment(dialect.containsIgnoringCase("c.common_name")), .text(name)) }
        let certificates = try db.rows("""
            SELECT c.sha1, c.common_name, c.type AS certificate_type,
                   \(Self.certificateTeam) AS team_id,
                   c.organization, c.issuer_common_name, c.serial,
                   c.not_before, c.not_after,
                   (SELECT count(*) FROM profile_certificates pc WHERE pc.certificate_sha1 = c.sha1) AS profile_count,
                   c.sha256
            FROM certificates c \(clauses.sql) ORDER BY c.not_after, c.sha1
            """, clauses.parameters).map(CertificateSummary.init)
        guard let users = filter.usedBy else { return certificates }
        return try certificates.compactMap { try counted($0, usedBy: users, includeSuperseded: true) }
    }

    /// Every device with how many profiles (and live profiles) list it, most used first.
    package func devices() throws -> [DeviceSummary] {
        try db.rows("""
            SELECT d.udid, coalesce(lists.n, 0) AS profile_count, d.first_seen
            FROM devices d LEFT JOIN (
                SELECT device_id, sum(\(dialect.jsonArrayLength("profile_ids"))) AS n FROM device_profiles GROUP BY device_id
            ) lists ON lists.device_id = d.id
            ORDER BY profile_count DESC, d.udid
            """).map(DeviceSummary.init)
    }

    /// The newest `limit` runs (all when nil), of `host` only when given.
    package func runs(limit: Int?, host: String? = nil) throws -> [RunSummary] {
        var json = StoredJSON()
        let (onHost, hosts) = self.onHost("host", host, "WHERE")
        return try db.rows("""
            SELECT id, NULLIF(host, '') AS host, started_at, finished_at, \(RunStatus.column) AS status, reason, roots,
                   files_scanned, files_unchanged, files_decoded, profiles_new, profiles_renewed, profiles_removed,
                   builds_seen, builds_new, builds_removed, errors
            FROM ingest_runs\(onHost) ORDER BY id DESC LIMIT ?
            """, hosts + [dialect.limit(limit)]).map { try RunSummary($0, json: &json) }
    }

    /// The errors run `runID` recorded; when nil, every error current now (not cleared by a later
    /// run), each path of each host once with the last run that met it. With `host`, only the
    /// errors of that host's runs. An error's host is its run's.
    /// With `all`, every error ever recorded, newest run first, cleared or not.
    package func errors(runID: Int64?, host: String? = nil, all: Bool = false) throws -> [IngestErrorSummary] {
        let (onHost, hosts) = self.onHost("r.host", host)
        if let runID {
            return try db.rows("""
                SELECT e.run_id, NULLIF(r.host, '') AS host, e.path, e.message
                FROM ingest_errors e JOIN ingest_runs r ON r.id = e.run_id
                WHERE e.run_id = ?\(onHost) ORDER BY e.id
                """, [.integer(runID)] + hosts).map(IngestErrorSummary.init)
        }
        if all {
            return try db.rows("""
                SELECT e.run_id, NULLIF(r.host, '') AS host, e.path, e.message
                FROM ingest_errors e JOIN ingest_runs r ON r.id = e.run_id
                WHERE 1 = 1\(onHost) ORDER BY e.run_id DESC, e.id
                """, hosts).map(IngestErrorSummary.init)
        }
        // A PATH that could not be read (a mistyped one) and never held anything the catalogue
        // knows is history once a later run of its host succeeded: that host ingests other roots.
        // A root that did hold files (a share that vanished) stays an error until it is read again.
        func current(_ error: IngestErrorSummary) throws -> Bool {
            let host = error.host ?? ""
            guard try db.firstRow("SELECT 1 AS x FROM ingest_runs WHERE host = ? AND id > ? AND status = 'ok' AND partial = 0",
                                  [.text(host), .integer(error.runID)]) != nil else { return true }
            let folder = error.path.hasSuffix("/") ? error.path : error.path + "/"
            return try db.firstRow("""
                SELECT 1 AS x FROM files WHERE host = ? AND (path = ? OR substr(path, 1, ?) = ?)
                """, [.text(host), .text(error.path), .integer(Int64(folder.utf8.count)), .text(folder)]) != nil
        }
        // The newest run of the error's host that met its path.
        return try db.rows("""
            SELECT DISTINCT e.run_id, NULLIF(r.host, '') AS host, e.path, e.message, r.host AS host_order
            FROM ingest_errors e JOIN ingest_runs r ON r.id = e.run_id
            WHERE e.cleared_at IS NULL\(onHost)
              AND e.run_id = (SELECT max(x.run_id) FROM ingest_errors x JOIN ingest_runs xr ON xr.id = x.run_id
                              WHERE \(dialect.nullSafeEquals("x.path", "e.path")) AND x.cleared_at IS NULL
                                AND xr.host = r.host)
            ORDER BY e.path\(dialect.nullsFirst), e.message, host_order
            """, hosts).map(IngestErrorSummary.init).filter { try current($0) }
    }

    /// How many profiles have each signature status; nil counts those catalogued before
    /// verification existed or with it off (`unchecked`).
    func profilesBySignature() throws -> [ProfileSignature.Status?: Int] {
        var counts: [ProfileSignature.Status?: Int] = [:]
        try db.eachRow("SELECT signature, count(*) AS n FROM profiles GROUP BY 1", []) { row in
            counts[try row.optionalValue("signature", as: ProfileSignature.Status.self)] = row.int("n") ?? 0
        }
        return counts
    }

    /// When the last successful ingest finished — of `host` (compared ignoring ASCII case) when
    /// given, else of any host: every answer is as old as that. Nil when none has.
    package func lastSuccessfulIngest(host: String? = nil) throws -> Date? {
        let (onHost, hosts) = self.onHost("host", host)
        return try db.firstRow("SELECT max(finished_at) AS at FROM ingest_runs WHERE status = 'ok'\(onHost)", hosts)?
            .string("at").flatMap(SQLDate.date(from:))
    }

    /// What the catalogue holds, and its newest run.
    package func stats() throws -> CatalogueStats {
        func count(_ sql: String) throws -> Int {
            try db.firstRow(sql)?.int("n") ?? 0
        }
        let last = try db.firstRow("""
            SELECT id, started_at, finished_at, \(RunStatus.column) AS status, reason, files_scanned, errors
            FROM ingest_runs ORDER BY id DESC LIMIT 1
            """).map { row in
            CatalogueStats.LastRun(runID: row.int64("id") ?? 0, startedAt: row.date("started_at"),
                                   finishedAt: row.date("finished_at"), status: try row.value("status", as: RunStatus.self),
                                   reason: row.string("reason"),
                                   filesScanned: row.int("files_scanned") ?? 0, errors: row.int("errors") ?? 0)
        }
        return CatalogueStats(
            schemaVersion: try db.schemaVersion(),
            profiles: try count("SELECT count(*) AS n FROM profiles"),
            profilesPresent: try count("SELECT count(DISTINCT profile_uuid) AS n FROM profile_locations WHERE removed_at IS NULL"),
            profilesInstalled: try count("""
                SELECT count(DISTINCT profile_uuid) AS n FROM profile_locations
                WHERE removed_at IS NULL AND container_kind = 'standalone'
                """),
            profileLocations: try count("SELECT count(*) AS n FROM profile_locations"),
            profilesBySignature: try profilesBySignature(),
            certificates: try count("SELECT count(*) AS n FROM certificates"),
            devices: try count("SELECT count(*) AS n FROM devices"),
            presentBuilds: try count("SELECT count(*) AS n FROM builds WHERE removed_at IS NULL"),
            removedBuilds: try count("SELECT count(*) AS n FROM builds WHERE removed_at IS NOT NULL"),
            runs: try count("SELECT count(*) AS n FROM ingest_runs"),
            lastRun: last,
            lastSuccessfulIngest: try lastSuccessfulIngest(),
            hosts: try hostIngests())
    }

    /// Each host's runs, by host name (the unnamed host '' first).
    func hostIngests() throws -> [CatalogueStats.HostIngests] {
        try db.rows("""
            SELECT r.host, count(*) AS runs,
                   max(CASE WHEN r.status = 'ok' THEN r.finished_at END) AS last_successful_ingest,
                   (SELECT CASE WHEN n.partial = 1 THEN 'partial' ELSE n.status END FROM ingest_runs n
                    WHERE n.host = r.host ORDER BY n.id DESC LIMIT 1) AS last_status
            FROM ingest_runs r GROUP BY r.host ORDER BY r.host
            """).map { row in
            CatalogueStats.HostIngests(
                host: row.string("host").flatMap { $0.isEmpty ? nil : $0 }, runs: row.int("runs") ?? 0,
                lastStatus: try row.value("last_status", as: RunStatus.self),
                lastSuccessfulIngest: row.string("last_successful_ingest").flatMap(SQLDate.date(from:)))
        }
    }
}
