import CatalogCore
import Foundation

extension CatalogQueries {
    package struct BuildFilter: Sendable {
        package var bundleID: String?
        package var shortVersion: String?
        package var build: String?
        package var teamID: String?
        package var profileUUID: String?
        /// Only builds with an executable or dSYM slice of this `LC_UUID` (upper case with dashes,
        /// ``MachOFile/canonicalUUID(_:)``); each build then carries its ``BuildSummary/binaryMatch``.
        package var binaryUUID: String?
        /// Archived (or, for builds without an archive date, first seen) at or after this date.
        package var since: Date?
        /// Only builds that stop launching (``BuildSummary/launchesUntil``) at or before this date;
        /// with `launchesFrom`, within the window. A build nothing stops (App Store) is never one.
        package var launchesUntilBy: Date?
        package var launchesFrom: Date?
        /// Only builds that still launch on a day, or only those that stopped before it; with
        /// `latestOfEachApp`, judged on each app's latest build (an app whose latest build stopped).
        package var launch: LaunchState?
        /// Only each app's newest build (the first of its bundle id in this order), not the apps
        /// nested in it: what the report calls an app's latest build.
        package var latestOfEachApp = false
        /// Only builds this device may install at `now`: the embedded profile lists it or
        /// provisions all devices and is not an App Store profile, and the build still launches.
        package var installableBy: String?
        /// The date `days_left` and `installableBy` are judged at.
        package var now = Date()
        /// Archived on or before this moment (the end of `--as-of`'s day): an archive made after a
        /// past date is not counted then. Nil: any.
        package var archivedBy: Date?
        package var presence: Presence = .present
        /// Only builds on this host (ignoring ASCII case); nil: any host.
        package var host: String?
        package var limit: Int?

        package init() {}
    }

    static func buildColumns(_ dialect: SQLDialect) -> String {
        """
        b.bundle_id, b.short_version, b.build, b.short_version || ' (' || b.build || ')' AS formatted_version,
        b.source_kind, NULLIF(b.host, '') AS host, b.path, NULLIF(b.app_path, '') AS app_path, b.profile_uuid, p.name AS profile_name,
        b.team_id, b.platform, b.package_type, b.archived_at, b.signing_identity,
        (SELECT parent.bundle_id FROM builds parent WHERE parent.id = b.parent_build_id) AS parent_bundle_id,
        b.first_seen, b.last_seen, b.removed_at,
        p.kind AS profile_kind, b.launches_until, b.launches_until_cause, b.launches_until_executable,
        b.launches_until_reason,
        \(supersededBy(dialect)) AS profile_superseded_by, b.error, b.id AS build_id, b.signing_checked
        """
    }

    /// Build history, newest version first (version-aware), then newest build.
    package func builds(_ filter: BuildFilter) throws -> [BuildSummary] {
        var builds: [BuildSummary] = []
        try forEachBuild(filter) { builds.append($0) }
        return builds
    }

    /// The builds `filter` selects, each handed to `body` as it is read.
    package func forEachBuild(_ filter: BuildFilter, _ body: (BuildSummary) throws -> Void) throws {
        var clauses = QueryFilter()
        switch filter.presence {
        case .present: clauses.add("b.removed_at IS NULL")
        case .removed: clauses.add("b.removed_at IS NOT NULL")
        case .any: break
        }
        if let host = filter.host { clauses.add(dialect.fragment(dialect.equalsIgnoringCase("b.host")), .text(host)) }
        if let archived = filter.archivedBy { clauses.add("(b.archived_at IS NULL OR b.archived_at <= ?)", SQLValue(archived)) }
        if let bundle = filter.bundleID { clauses.add(dialect.fragment(dialect.equalsIgnoringCase("b.bundle_id")), .text(bundle)) }
        if let version = filter.shortVersion { clauses.add("b.short_version = ?", .text(version)) }
        if let build = filter.build { clauses.add("b.build = ?", .text(build)) }
        if let team = filter.teamID { clauses.add("b.team_id = ?", .text(team.uppercased())) }
        if let uuid = filter.profileUUID { clauses.add("b.profile_uuid = ?", .text(uuid.uppercased())) }
        if let since = filter.since { clauses.add("COALESCE(b.archived_at, b.first_seen) >= ?", SQLValue(since)) }
        if let by = filter.launchesUntilBy { clauses.add("b.launches_until <= ?", SQLValue(by)) }
        if let from = filter.launchesFrom { clauses.add("b.launches_until >= ?", SQLValue(from)) }
        if let udid = filter.installableBy {
            // A profile for all devices counts only on the platforms the device was provisioned for
            // (an iPhone is no Mac): those of the profiles that list it.
            let spellings: [SQLValue] = [.text(udid), .text(udid.uppercased()), .text(udid.lowercased())]
            clauses.add(dialect.fragment("""
                p.kind <> 'app-store' AND b.launches_until >= ?
                AND b.profile_uuid IN (
                    SELECT listing.uuid FROM profiles listing WHERE listing.id IN (\(deviceProfileIDs))
                    UNION SELECT everyone.uuid FROM profiles everyone WHERE everyone.provisions_all_devices = 1
                        AND everyone.platforms IN (SELECT mine.platforms FROM profiles mine WHERE mine.id IN (\(deviceProfileIDs))))
                """), [SQLValue(filter.now)] + spellings + spellings)
        }
        var parameters = clauses.parameters
        // By the uuid index: the builds that hold the binary, with where it is in each.
        var matchColumns = "", matchJoin = ""
        if let uuid = filter.binaryUUID {
            matchColumns = ", m.binary_path, m.binary_role, m.binary_arch, m.dsym_path"
            matchJoin = """
                JOIN (SELECT build_id, min(CASE WHEN kind = 'executable' THEN path END) AS binary_path,
                        min(CASE WHEN kind = 'executable' THEN role END) AS binary_role, min(arch) AS binary_arch,
                        min(CASE WHEN kind = 'dsym' THEN path END) AS dsym_path
                    FROM build_binaries WHERE uuid = ? GROUP BY build_id) m ON m.build_id = b.id
                """
            parameters.insert(.text(uuid), at: 0)
        }
        var sql = """
            SELECT \(Self.buildColumns(dialect))\(matchColumns)
            FROM builds b LEFT JOIN profiles p ON p.uuid = b.profile_uuid \(matchJoin)
            \(clauses.sql)
            ORDER BY \(dialect.ignoringCase("b.bundle_id"))\(dialect.nullsFirst), b.bundle_id, b.version_sort DESC, b.build_sort DESC,
                     b.archived_at DESC\(dialect.nullsLast), b.path, b.host
            """
        if let limit = filter.limit, !filter.latestOfEachApp, filter.launch == nil {
            sql += " LIMIT ?"
            parameters.append(.integer(Int64(limit)))
        }
        var apps = Set<String>(), kept = 0
        // Handed on a page at a time, each page's signing facts read by two queries.
        var page: [(id: Int64, checked: Bool, build: BuildSummary)] = []
        func flush() throws {
            let signing = try self.signing(ofBuilds: page.filter(\.checked).map(\.id), asOf: filter.now)
            for var entry in page {
                if entry.checked { entry.build.signing = signing[entry.id] ?? BuildSigning() }
                try body(entry.build)
            }
            page.removeAll(keepingCapacity: true)
        }
        try db.eachRow(sql, parameters) { row in
            var summary = try BuildSummary(row)
            if filter.latestOfEachApp {
                guard summary.parentBundleID == nil, let bundle = summary.bundleID, apps.insert(bundle.lowercased()).inserted else { return }
            }
            if let launch = filter.launch, !launch.holds(for: summary.launchesUntil) { return }
            if filter.latestOfEachApp || filter.launch != nil {
                guard kept < filter.limit ?? .max else { return }
                kept += 1
            }
            if let uuid = filter.binaryUUID { summary.binaryMatch = BuildSummary.BinaryMatch(uuid: uuid, row) }
            page.append((row.int64("build_id") ?? 0, row.bool("signing_checked") ?? false, summary))
            if page.count == Self.signingPage { try flush() }
        }
        try flush()
    }

    /// Whether a build launches on a day (`--launching`, `--expired`), by its stored launch limit.
    package enum LaunchState: Sendable, Equatable {
        /// Still launches on the day starting at this instant, or nothing is known to stop it.
        case launching(dayStart: Date)
        /// Stopped launching before the day starting at this instant.
        case stopped(dayStart: Date)

        func holds(for until: Date?) -> Bool {
            switch self {
            case .launching(let start): return until.map { $0 >= start } ?? true
            case .stopped(let start): return until.map { $0 < start } ?? false
            }
        }
    }

    /// Builds per page of ``forEachBuild(_:_:)``: the ids one signing query lists.
    static let signingPage = 200

    /// The executables, dSYMs and signing problems (a dated one only when its date is before
    /// `asOf`) of the builds `ids`.
    func signing(ofBuilds ids: [Int64], asOf: Date) throws -> [Int64: BuildSigning] {
        guard !ids.isEmpty else { return [:] }
        var result: [Int64: BuildSigning] = [:]
        let list = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        let values = ids.map(SQLValue.integer)
        let json = StoredJSON()
        // Rows come slice by slice in the order the writer wrote them: a file's slices together.
        var last: (build: Int64, kind: String, path: String)?
        try db.eachRow("""
            SELECT build_id, kind, role, path, bundle_id, arch, uuid, cdhash, team_id, certificate_sha1, certificate_name,
                   identifier, entitlements, error
            FROM build_binaries WHERE build_id IN (\(list)) ORDER BY build_id, id
            """, values) { row in
            let build = row.int64("build_id") ?? 0, kind = row.string("kind") ?? "", path = row.string("path") ?? ""
            let files: WritableKeyPath<BuildSigning, [CataloguedBinary]> = kind == "dsym" ? \.dsyms : \.executables
            // Taken out while it changes, so its lists are changed in place rather than copied.
            var signing = result.removeValue(forKey: build) ?? BuildSigning()
            defer { result[build] = signing }
            if last.map({ $0 != (build, kind, path) }) ?? true {
                signing[keyPath: files].append(CataloguedBinary(
                    role: try row.optionalValue("role", as: BuildExecutable.Role.self), path: path,
                    bundleID: row.string("bundle_id"), architectures: [], signature: nil, error: row.string("error")))
                last = (build, kind, path)
            }
            let file = signing[keyPath: files].count - 1
            if let arch = row.string("arch") {
                signing[keyPath: files][file].architectures.append(.init(arch: arch, uuid: row.string("uuid")))
            }
            if signing[keyPath: files][file].signature == nil, let entitlements = row.string("entitlements") {
                signing[keyPath: files][file].signature = .init(
                    identifier: row.string("identifier"), teamID: row.string("team_id"), cdhash: row.string("cdhash"),
                    certificateSHA1: row.string("certificate_sha1"), certificateName: row.string("certificate_name"),
                    entitlements: json.value(entitlements))
            }
        }
        try db.eachRow("""
            SELECT build_id, code, executable, message, effective_at
            FROM build_signing_problems WHERE build_id IN (\(list)) ORDER BY build_id, ordinal
            """, values) { row in
            let date = row.date("effective_at")
            // A dated problem holds once its date has passed, as the check judges it at a date.
            if let date, !(date < asOf) { return }
            let problem = SigningProblem(try row.value("code", as: SigningProblem.Code.self),
                                         executable: row.string("executable") ?? "", message: row.string("message") ?? "",
                                         date: date)
            result[row.int64("build_id") ?? 0, default: BuildSigning()].problems.append(problem)
        }
        return result
    }

    /// One record per short version of `bundleID`: the builds seen, when, and archive dates; with
    /// `host`, of that host's builds only. A build (bundle id, version, build number, team) is counted
    /// once however many locations it was seen at (an `.xcarchive` and the `.ipa` exported from it); a
    /// location without a team (an `.ipa` or `.app` that embeds no profile) belongs to the build of the
    /// same number when only one team has built that number.
    package func versions(bundleID: String, presence: Presence, host: String? = nil) throws -> [VersionSummary] {
        let (onHost, hosts) = self.onHost("b.host", host)
        let rows = try db.rows("""
            SELECT b.short_version, b.version_sort, b.build, b.build_sort, b.source_kind, b.team_id, b.profile_uuid,
                   b.first_seen, b.last_seen, b.archived_at, p.kind AS profile_kind,
                   b.launches_until,
                   \(Self.supersededBy(dialect)) AS profile_superseded_by
            FROM builds b LEFT JOIN profiles p ON p.uuid = b.profile_uuid
            WHERE \(dialect.equalsIgnoringCase("b.bundle_id")) AND (? OR (b.removed_at IS NULL) = ?)\(onHost)
            ORDER BY b.version_sort DESC, b.build_sort DESC, b.path, b.host
            """, [.text(bundleID), SQLValue(presence == .any), SQLValue(presence == .present)] + hosts)
        var order: [String] = []
        var groups: [String: [Row]] = [:]
        for row in rows {
            let version = row.string("short_version") ?? ""
            if groups[version] == nil { order.append(version) }
            groups[version, default: []].append(row)
        }
        return try order.map { version in
            let group = groups[version] ?? []
            var builds: [String] = []
            for row in group { if let build = row.string("build"), !builds.contains(build) { builds.append(build) } }
            let identities = group.map(Self.buildIdentity(in: group))
            var distinct: [BuildIdentity] = []
            for identity in identities where !distinct.contains(identity) { distinct.append(identity) }
            let archived = group.compactMap { $0.date("archived_at") }
            let sources = Set(try group.map { try $0.value("source_kind", as: BuildArtifact.SourceKind.self) })
            // The newest build's launch limit: what the profiles embedded at its locations let it do,
            // the earliest of them when its copies embed different ones; a copy without one says nothing.
            let newest = distinct.first
            let limit = zip(group, identities)
                .filter { $0.1 == newest && $0.0.string("profile_uuid") != nil }.map(\.0)
                .min { ($0.date("launches_until") ?? .distantFuture) < ($1.date("launches_until") ?? .distantFuture) }
            return VersionSummary(
                bundleID: bundleID, shortVersion: version, buildNumbers: builds, buildCount: distinct.count,
                sources: sources.sorted { $0.rawValue < $1.rawValue },
                firstSeen: group.compactMap { $0.date("first_seen") }.min(),
                lastSeen: group.compactMap { $0.date("last_seen") }.max(),
                firstArchivedAt: archived.min(), lastArchivedAt: archived.max(),
                profileKind: try limit?.optionalValue("profile_kind", as: ProfileKind.self),
                launchesUntil: limit?.date("launches_until"), profileSupersededBy: limit?.string("profile_superseded_by"))
        }
    }

    /// One build of a version: its build number and team.
    private struct BuildIdentity: Equatable {
        var build: String
        var team: String?
    }

    /// The build a location of `group` (one version's rows) is a copy of: its number and team, or,
    /// without a team, the one team that built that number in `group` (none when zero or several did).
    private static func buildIdentity(in group: [Row]) -> (Row) -> BuildIdentity {
        var teams: [String: Set<String>] = [:]
        for row in group {
            guard let build = row.string("build"), let team = row.string("team_id")?.uppercased() else { continue }
            teams[build, default: []].insert(team)
        }
        return { row in
            let build = row.string("build") ?? ""
            let known = teams[build] ?? []
            return BuildIdentity(build: build, team: row.string("team_id")?.uppercased() ?? (known.count == 1 ? known.first : nil))
        }
    }
}
