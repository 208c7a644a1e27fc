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
        /// `CertificateType` raw values; any of them.
        package var types: [String]?
        /// true: expired at `now`; false: still valid; nil: either.
        package var expired: Bool?
        package var nameContains: String?
        package var now = Date()

        package init() {}
    }

    package func certificates(_ filter: CertificateFilter) throws -> [JSONValue] {
        var clauses = QueryFilter()
        if let from = filter.notAfterFrom { clauses.add("c.not_after >= ?", SQLValue(from)) }
        if let to = filter.notAfterTo { clauses.add("c.not_after <= ?", SQLValue(to)) }
        if let teamID = filter.teamID { clauses.add("c.team_id = ?", .text(teamID.uppercased())) }
        if let types = filter.types { clauses.add("c.type IN (SELECT value FROM json_each(?))", .text(JSONValue.strings(types).serialized())) }
        if let expired = filter.expired {
            clauses.add(expired ? "c.not_after < ?" : "c.not_after >= ?", SQLValue(filter.now))
        }
        if let name = filter.nameContains { clauses.add("instr(lower(c.common_name), lower(?)) > 0", .text(name)) }
        return try db.query("""
            SELECT c.sha1, c.common_name, c.type AS certificate_type, c.team_id, c.organization, c.issuer_common_name, c.serial,
                   c.not_before, c.not_after,
                   (SELECT count(*) FROM profile_certificates pc WHERE pc.certificate_sha1 = c.sha1) AS profile_count,
                   c.sha256
            FROM certificates c \(clauses.sql) ORDER BY c.not_after, c.sha1
            """, clauses.parameters).map { row in
            .object(Self.insertingDaysLeft(into: [("type", .string("certificate"))] + RecordMapping.json(row),
                                           after: "not_after", from: filter.now))
        }
    }

    /// `days_left` from `now` to the date under `key`, placed right after it.
    static func insertingDaysLeft(into pairs: [(String, JSONValue)], after key: String, from now: Date) -> [(String, JSONValue)] {
        guard let index = pairs.firstIndex(where: { $0.0 == key }), case .string(let date) = pairs[index].1 else { return pairs }
        var result = pairs
        result.insert(("days_left", RecordMapping.daysLeft(date, from: now)), at: index + 1)
        return result
    }

    /// Every device with how many profiles (and live profiles) list it, most used first.
    package func devices() throws -> [JSONValue] {
        try db.query("""
            SELECT d.udid, count(pd.profile_id) AS profile_count, d.first_seen
            FROM devices d LEFT JOIN profile_devices pd ON pd.device_id = d.id
            GROUP BY d.id ORDER BY profile_count DESC, d.udid
            """).map { .object(RecordMapping.json($0)) }
    }

    package func runs(limit: Int?) throws -> [JSONValue] {
        try db.query("""
            SELECT id AS run_id, started_at, finished_at, status, roots, files_scanned, files_unchanged, files_decoded,
                   profiles_new, profiles_renewed, profiles_removed, builds_seen, builds_new, builds_removed, errors
            FROM ingest_runs ORDER BY id DESC LIMIT ?
            """, [.integer(Int64(limit ?? -1))]).map { .object(RecordMapping.json($0)) }
    }

    /// The errors run `runID` recorded; when nil, every error current now (not cleared by a later
    /// run), each path once with the last run that met it.
    package func errors(runID: Int64?) throws -> [JSONValue] {
        if let runID {
            return try db.query("""
                SELECT run_id, path, message FROM ingest_errors WHERE run_id = ? ORDER BY id
                """, [.integer(runID)]).map { .object(RecordMapping.json($0)) }
        }
        return try db.query("""
            SELECT DISTINCT e.run_id, e.path, e.message FROM ingest_errors e
            WHERE e.cleared_at IS NULL
              AND e.run_id = (SELECT max(x.run_id) FROM ingest_errors x WHERE x.path IS e.path AND x.cleared_at IS NULL)
            ORDER BY e.path, e.message
            """).map { .object(RecordMapping.json($0)) }
    }

    /// How many profiles have each signature status (issue 13); `unchecked` counts those catalogued
    /// before verification existed or with it off. Every status is listed, zeros included.
    func profilesBySignature() throws -> JSONValue {
        var counts: [String: Int64] = [:]
        try db.forEachRow("SELECT coalesce(signature, 'unchecked') AS status, count(*) AS n FROM profiles GROUP BY 1") { row in
            counts[row.string("status") ?? "unchecked"] = row.int64("n") ?? 0
        }
        let statuses = ProfileSignature.Status.allCases.map(\.rawValue) + ["unchecked"]
        return .object(statuses.map { ($0, .int(counts[$0] ?? 0)) })
    }

    /// When the last successful ingest finished: every answer is as old as that. Nil when none has.
    package func lastSuccessfulIngest() throws -> Date? {
        try db.queryFirst("SELECT max(finished_at) AS at FROM ingest_runs WHERE status = 'ok'")?
            .string("at").flatMap(SQLDate.date(from:))
    }

    package func stats(path: String, schemaVersion: Int, now: Date = Date()) throws -> JSONValue {
        func count(_ sql: String) throws -> JSONValue {
            .int(try db.queryFirst(sql)?.int64("n") ?? 0)
        }
        let lastIngest = try lastSuccessfulIngest()
        let last = try db.queryFirst("""
            SELECT id AS run_id, started_at, finished_at, status, files_scanned, errors FROM ingest_runs ORDER BY id DESC LIMIT 1
            """)
        return .object([
            ("database", .string(path)),
            ("schema_version", .int(Int64(schemaVersion))),
            ("profiles", try count("SELECT count(*) AS n FROM profiles")),
            ("profiles_present", try count("""
                SELECT count(DISTINCT profile_uuid) AS n FROM profile_locations WHERE removed_at IS NULL
                """)),
            ("profiles_installed", try count("""
                SELECT count(DISTINCT profile_uuid) AS n FROM profile_locations
                WHERE removed_at IS NULL AND container_kind = 'standalone'
                """)),
            ("profile_locations", try count("SELECT count(*) AS n FROM profile_locations")),
            ("profiles_by_signature", try profilesBySignature()),
            ("certificates", try count("SELECT count(*) AS n FROM certificates")),
            ("devices", try count("SELECT count(*) AS n FROM devices")),
            ("build_count", try count("SELECT count(*) AS n FROM builds WHERE removed_at IS NULL")),
            ("removed_build_count", try count("SELECT count(*) AS n FROM builds WHERE removed_at IS NOT NULL")),
            ("runs", try count("SELECT count(*) AS n FROM ingest_runs")),
            ("last_run", last.map { .object(RecordMapping.json($0)) } ?? .null),
            ("last_successful_ingest", .optional(lastIngest)),
            ("age_seconds", .optional(lastIngest.map { Int(now.timeIntervalSince($0).rounded(.down)) })),
        ])
    }
}
