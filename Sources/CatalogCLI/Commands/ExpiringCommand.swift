import CatalogCore
import CatalogStore
import Foundation

/// `catalog expiring`: profiles (and certificates) whose effective expiry falls within N days.
enum ExpiringCommand: Command {
    static let name = "expiring"
    static let abstract = "List profiles and certificates that expire within N days."
    static let discussion: String? = """
        A profile stops working at its effective expiry: the earlier of its ExpirationDate and its
        latest developer certificate's notAfter. By default only installed profiles (standalone files)
        count; --all-locations adds profiles seen only embedded in builds. Soonest first. A profile
        superseded by its renewal (another present profile of the same team, app id, kind and
        platform that expires later, signed at least as trustworthily: verified > untrusted >
        unsigned) is left out, and so is a certificate that only such profiles use;
        --include-superseded lists them, marked. Certificates follow --team and --kind through the
        profiles that use them.

        Exit status: 0 success (with --exit-code: nothing in the window), 2 with --exit-code when
        anything is listed, 1 on failure (no catalogue, unreadable, …), 64 on a usage error. Nothing
        in the window prints nothing, except `[]` for JSON.
        """
    static let arguments: [ArgumentSpec] = []
    static let examples = [
        "catalog expiring --days 14",
        "catalog expiring --builds --json",
        "catalog expiring --days 7 --exit-code",
    ]

    /// Profiles and certificates in one table, each row under its own keys: a certificate's
    /// `not_after`, `common_name` and `sha1` fill the columns a profile fills with its effective
    /// expiry, name and UUID. A narrow table keeps when, what and why, then the team and the name,
    /// long before the UUID.
    static let columns: [Column] = [
        Column(key: "type", header: "TYPE"),
        Column(key: "effective_expiration_date", header: "EXPIRES", display: RelativeTime.day, alternatives: ["not_after"]),
        Column(key: "days_left", header: "LEFT", display: RelativeTime.days),
        Column(key: "expiry_cause", header: "BY"),
        Column(key: "kind", header: "KIND", alternatives: ["certificate_type"]),
        Column(key: "team_id", header: "TEAM"),
        Column(key: "name", header: "NAME", alternatives: ["common_name"], mark: Column.invalidSignatureMark),
        Column(key: "uuid", header: "UUID / SHA-1", alternatives: ["sha1"]),
        Column(key: "profile_count", header: "PROFILES"),
        Column(key: "superseded_by", header: "SUPERSEDED BY"),
    ].ranked(["effective_expiration_date", "days_left", "type", "expiry_cause", "team_id", "name", "superseded_by", "uuid",
              "kind", "profile_count"])

    static let buildColumns: [Column] = [
        Column(key: "type", header: "TYPE"),
        Column(key: "launches_until", header: "EXPIRES", display: RelativeTime.day),
        Column(key: "days_left", header: "LEFT", display: RelativeTime.days),
        Column(key: "launches_until_cause", header: "BY"),
        Column(key: "profile_kind", header: "KIND"),
        Column(key: "team_id", header: "TEAM"),
        Column(key: "bundle_id", header: "BUNDLE ID"),
        Column(key: "formatted_version", header: "VERSION"),
        Column.host,
        Column(key: "path", header: "PATH"),
    ].ranked(["launches_until", "days_left", "bundle_id", "formatted_version", "launches_until_cause", "type", "path",
              "host", "profile_kind", "team_id"])

    /// What `--notify-at` keeps for this listing: its own section of the state file, by the
    /// catalogue and the filters that decide what it lists.
    static func notifyState(_ options: ExpiringOptions) throws -> NotifyState? {
        guard let thresholds = options.notifyAt else { return nil }
        let scope = [options.query.database, options.builds ? "builds" : "profiles", "team=\(options.teamID ?? "")",
                     "kind=\(options.kind?.rawValue ?? "")", "all-locations=\(options.allLocations)",
                     "include-superseded=\(options.includeSuperseded)", "host=\(options.query.host ?? "")"].joined(separator: " ")
        return try NotifyState(path: options.statePath, scope: scope, thresholds: thresholds)
    }

    static func run(_ options: ExpiringOptions, _ context: CommandContext) throws -> Int32 {
        if options.builds { return try runBuilds(options, context) }
        var notify = try notifyState(options)
        // With --notify-at what has expired is announced once, when it expires.
        let includeExpired = options.includeExpired || notify != nil
        let now = options.query.asOf
        let scope: CatalogQueries.LocationScope = options.allLocations ? .anyLive : .installed
        var filter = CatalogQueries.ProfileFilter()
        filter.scope = scope
        filter.teamID = options.teamID
        filter.kind = options.kind
        filter.expiringBy = options.end
        filter.expired = includeExpired ? nil : false
        filter.now = options.start
        filter.createdBy = DaysLeft.end(0, after: now)
        filter.superseded = options.includeSuperseded ? nil : false
        filter.host = options.query.host
        /// Whether a row is shown: always without --notify-at; with it, when it reaches a new stage.
        func announced(_ key: String, _ expires: Date?) -> Bool {
            guard notify != nil else { return true }
            guard let expires else { return false }
            return notify!.announce(key, expires: expires, daysLeft: DaysLeft.days(until: expires, from: now),
                                    expiredWhenNew: options.includeExpired)
        }
        let queries = try QuerySupport.queries(options.query, context)
        let certificates = try queries.certificatesExpiring(from: options.start, to: options.end, includeExpired: includeExpired)
        let shown = options.includeSuperseded ? columns : columns.filter { $0.key != "superseded_by" }
        // Both lists by effective expiry (a certificate's is its notAfter), profiles first on the same
        // instant: the few certificates are read first, and each is written before the first
        // profile that expires after it, as the profiles stream by — counted then by the profiles
        // this listing would show whatever their expiry (scope, team, kind, not superseded), and
        // left out when none lists it: a renewal with a new certificate silences the old one too.
        // CSV: the profile row's keys, then the certificate row's others (`type` says which).
        let keys = CSVRenderer.union(ProfileSummary.outputKeys, CertificateSummary.outputKeys)
        let listed = try QuerySupport.stream(columns: shown, keys: keys, options.query, context) { stream in
            var pending = certificates[...]
            func writeCertificates(before date: Date?) throws {
                while let next = pending.first, date.map({ (next.notAfter ?? .distantPast) < $0 }) ?? true {
                    pending = pending.dropFirst()
                    if let counted = try queries.counted(next, usedBy: filter, includeSuperseded: options.includeSuperseded),
                       announced("certificate:" + counted.sha1, next.notAfter) {
                        stream.write(counted.expiringOutput(now: now))
                    }
                }
            }
            try queries.forEachProfile(filter) { profile in
                try writeCertificates(before: profile.effectiveExpirationDate ?? .distantPast)
                if announced("profile:" + profile.uuid, profile.effectiveExpirationDate) { stream.write(profile, now: now) }
            }
            try writeCertificates(before: nil)
        }
        try notify?.save()
        return options.exitCode && listed > 0 ? ExitStatus.found : ExitStatus.success

    }

    /// `expiring --builds`: present builds that stop launching (their stored launch limit) in the
    /// window; App Store builds, which nothing stops, never. A renewal does not help a build already
    /// made, so superseded profiles count here.
    static func runBuilds(_ options: ExpiringOptions, _ context: CommandContext) throws -> Int32 {
        let now = options.query.asOf
        var notify = try notifyState(options)
        var filter = CatalogQueries.BuildFilter()
        filter.teamID = options.teamID
        filter.now = now
        filter.archivedBy = DaysLeft.end(0, after: now)
        filter.launchesUntilBy = options.end
        filter.launchesFrom = options.includeExpired || notify != nil ? nil : options.start
        filter.host = options.query.host
        // Soonest first, as profiles are; the store's order (by app and version) breaks ties.
        let builds = try QuerySupport.queries(options.query, context).builds(filter).enumerated().sorted {
            ($0.element.launchesUntil ?? .distantPast, $0.offset) < ($1.element.launchesUntil ?? .distantPast, $1.offset)
        }.map(\.element).filter { build in
            guard notify != nil else { return true }
            guard let until = build.launchesUntil else { return false }
            let key = "build:\(build.host ?? "")|\(build.path)|\(build.appPath ?? "")|\(build.shortVersion) (\(build.build))"
            return notify!.announce(key, expires: until, daysLeft: DaysLeft.days(until: until, from: now),
                                    expiredWhenNew: options.includeExpired)
        }
        let records = builds.map { $0.output(now: now) }
        QuerySupport.print(records, columns: buildColumns, keys: BuildSummary.outputKeys, options.query, context)
        try notify?.save()
        return options.exitCode && !records.isEmpty ? ExitStatus.found : ExitStatus.success
    }
}
