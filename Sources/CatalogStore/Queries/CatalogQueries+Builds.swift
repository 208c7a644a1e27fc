import CatalogCore
import Foundation

extension CatalogQueries {
    package struct BuildFilter: Sendable {
        package var bundleID: String?
        package var shortVersion: String?
        package var build: String?
        package var teamID: String?
        package var profileUUID: String?
        /// Archived (or, for builds without an archive date, first seen) at or after this date.
        package var since: Date?
        package var presence: Presence = .present
        package var limit: Int?

        package init() {}
    }

    static let buildColumns = """
        b.bundle_id, b.short_version, b.build, b.short_version || ' (' || b.build || ')' AS formatted_version,
        b.source_kind, b.path, NULLIF(b.app_path, '') AS app_path, b.profile_uuid, p.name AS profile_name,
        b.team_id, b.platform, b.package_type, b.archived_at, b.signing_identity,
        (SELECT parent.bundle_id FROM builds parent WHERE parent.id = b.parent_build_id) AS parent_bundle_id,
        b.first_seen, b.last_seen, b.removed_at
        """

    /// Build history, newest version first (version-aware), then newest build.
    package func builds(_ filter: BuildFilter) throws -> [JSONValue] {
        var clauses = QueryFilter()
        switch filter.presence {
        case .present: clauses.add("b.removed_at IS NULL")
        case .removed: clauses.add("b.removed_at IS NOT NULL")
        case .any: break
        }
        if let bundle = filter.bundleID { clauses.add("b.bundle_id = ? COLLATE NOCASE", .text(bundle)) }
        if let version = filter.shortVersion { clauses.add("b.short_version = ?", .text(version)) }
        if let build = filter.build { clauses.add("b.build = ?", .text(build)) }
        if let team = filter.teamID { clauses.add("b.team_id = ?", .text(team.uppercased())) }
        if let uuid = filter.profileUUID { clauses.add("b.profile_uuid = ?", .text(uuid.uppercased())) }
        if let since = filter.since { clauses.add("COALESCE(b.archived_at, b.first_seen) >= ?", SQLValue(since)) }
        var parameters = clauses.parameters
        var sql = """
            SELECT \(Self.buildColumns) FROM builds b LEFT JOIN profiles p ON p.uuid = b.profile_uuid
            \(clauses.sql)
            ORDER BY b.bundle_id, b.version_sort DESC, b.build_sort DESC, b.archived_at DESC, b.path
            """
        if let limit = filter.limit {
            sql += " LIMIT ?"
            parameters.append(.integer(Int64(limit)))
        }
        return try db.query(sql, parameters).map { .object(RecordMapping.json($0)) }
    }

    /// One record per short version of `bundleID`: the builds seen, when, and archive dates.
    package func versions(bundleID: String, presence: Presence) throws -> [JSONValue] {
        let rows = try db.query("""
            SELECT short_version, version_sort, build, build_sort, source_kind, first_seen, last_seen, archived_at
            FROM builds WHERE bundle_id = ? COLLATE NOCASE AND (?2 OR (removed_at IS NULL) = ?3)
            ORDER BY version_sort DESC, build_sort DESC
            """, [.text(bundleID), SQLValue(presence == .any), SQLValue(presence == .present)])
        var order: [String] = []
        var groups: [String: [Row]] = [:]
        for row in rows {
            let version = row.string("short_version") ?? ""
            if groups[version] == nil { order.append(version) }
            groups[version, default: []].append(row)
        }
        return order.map { version in
            let group = groups[version] ?? []
            var builds: [String] = []
            for row in group { if let build = row.string("build"), !builds.contains(build) { builds.append(build) } }
            let firstSeen = group.compactMap { $0.string("first_seen") }.min()
            let lastSeen = group.compactMap { $0.string("last_seen") }.max()
            let archived = group.compactMap { $0.string("archived_at") }.sorted()
            return .object([
                ("bundle_id", .string(bundleID)),
                ("short_version", .string(version)),
                ("builds", .strings(builds)),
                ("build_count", .int(Int64(group.count))),
                ("latest_build", .optional(builds.first)),
                ("formatted_version", .optional(builds.first.map { "\(version) (\($0))" })),
                ("sources", .strings(Array(Set(group.compactMap { $0.string("source_kind") })).sorted())),
                ("first_seen", .optional(firstSeen)),
                ("last_seen", .optional(lastSeen)),
                ("first_archived_at", .optional(archived.first)),
                ("last_archived_at", .optional(archived.last)),
            ])
        }
    }
}
