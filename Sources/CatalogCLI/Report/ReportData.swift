import CatalogCore
import CatalogStore
import Foundation

/// What `catalog report` shows, read from the catalogue once and typed: installed profiles and the
/// certificates they use by effective expiry, the latest build of each app, and the catalogue's age.
struct ReportData {
    /// Where an expiry stands at the report's date.
    enum Status: String, CaseIterable {
        case expired
        case week = "within 7 days"
        case window = "within the window"
        case later

        /// Not expired and not beyond the window.
        var isInWindow: Bool { self == .week || self == .window }
    }

    /// A profile or a certificate on the timeline and in the tables.
    struct Item {
        var isCertificate: Bool
        var name: String
        var teamID: String
        /// The profile's bundle id (or the certificate's type of lane).
        var subject: String
        /// The profile's UUID or the certificate's SHA-1.
        var identifier: String
        var kind: String
        var expires: Date
        var daysLeft: Int
        var status: Status
        var supersededBy: String?
        /// Certificates: how many installed profiles use it.
        var profileCount: Int
        var lane: String { "\(teamID) · \(subject)" }
    }

    struct Build {
        var bundleID: String
        var version: String
        var source: String
        /// When it stops launching (as `builds` says); nil for an App Store build, which nothing stops,
        /// and one whose profile is not known: neither is counted as stopping.
        var launchesUntil: Date?
        var launchesUntilCause: LaunchLimit.Cause?
        var daysLeft: Int?
        var status: Status?
        var profileKind: String?
        var path: String

        /// The "launches until" cell of a build without a date: an App Store build says that nothing
        /// stops it, rather than looking unknown.
        var noLimitText: String { launchesUntilCause == .appStore ? "none (App Store)" : "–" }
    }

    var asOf: Date
    /// The window: `days_left` 0 through `days` (README, "Days").
    var days: Int
    /// The last second of the window.
    var end: Date { DaysLeft.end(days, after: asOf) }
    var teamID: String?
    var catalogue: String
    var lastIngest: Date?
    /// The newest run, when it did not read every root (or could not write): the report says so.
    var failedRun: RunSummary?
    /// Every installed profile, soonest expiry first.
    var profiles: [Item]
    /// Certificates used by installed profiles that expire by the window's end (expired ones
    /// included), soonest first.
    var certificates: [Item]
    /// The newest present build of each app.
    var builds: [Build]

    /// Where `daysLeft` stands in a window of `days` days: by whole days, as the tables show it.
    static func status(daysLeft: Int, days: Int) -> Status {
        if daysLeft < 0 { return .expired }
        if daysLeft <= 7 { return .week }
        if daysLeft <= days { return .window }
        return .later
    }

    static func load(_ queries: CatalogQueries, asOf: Date, days: Int, teamID: String?, catalogue: String) throws -> ReportData {
        let end = DaysLeft.end(days, after: asOf)
        func daysLeft(_ date: Date) -> Int { DaysLeft.days(until: date, from: asOf) }
        func status(_ date: Date) -> Status { Self.status(daysLeft: daysLeft(date), days: days) }

        var filter = CatalogQueries.ProfileFilter()
        filter.scope = .installed
        filter.teamID = teamID
        filter.now = asOf
        filter.createdBy = DaysLeft.end(0, after: asOf)
        filter.expiringBy = .distantFuture
        let profiles = try queries.profiles(filter).compactMap { profile -> Item? in
            guard let date = profile.effectiveExpirationDate else { return nil }
            return Item(isCertificate: false, name: profile.name, teamID: profile.teamID ?? "–",
                        subject: profile.bundleID ?? profile.applicationIdentifier ?? "–",
                        identifier: profile.uuid, kind: profile.kind.rawValue,
                        expires: date, daysLeft: daysLeft(date), status: status(date),
                        supersededBy: profile.supersededBy, profileCount: 0)
        }
        // The same filters as the commands the report cites (``expiredCertificatesCommand`` and
        // the others), so its counts are theirs.
        var certificateFilter = CatalogQueries.CertificateFilter()
        certificateFilter.now = DaysLeft.start(asOf)
        certificateFilter.notAfterTo = end
        certificateFilter.teamID = teamID
        var users = CatalogQueries.ProfileFilter()
        users.scope = .installed
        users.createdBy = filter.createdBy
        certificateFilter.usedBy = users
        let certificates = try queries.certificates(certificateFilter).compactMap { certificate -> Item? in
            guard let date = certificate.notAfter else { return nil }
            return Item(isCertificate: true, name: certificate.commonName ?? "", teamID: certificate.teamID ?? "–",
                        subject: "certificates", identifier: certificate.sha1, kind: "certificate",
                        expires: date, daysLeft: daysLeft(date), status: status(date),
                        supersededBy: nil, profileCount: certificate.profileCount ?? 0)
        }
        var buildFilter = CatalogQueries.BuildFilter()
        buildFilter.teamID = teamID
        buildFilter.now = asOf
        buildFilter.archivedBy = DaysLeft.end(0, after: asOf)
        buildFilter.latestOfEachApp = true
        let builds = try queries.builds(buildFilter).map { build -> Build in
            let until = build.launchesUntil
            return Build(bundleID: build.bundleID ?? "", version: build.formattedVersion, source: build.sourceKind.rawValue,
                         launchesUntil: until, launchesUntilCause: build.launchesUntilCause, daysLeft: until.map(daysLeft),
                         status: until.map(status),
                         profileKind: build.profileKind?.rawValue, path: build.path)
        }.sorted { ($0.launchesUntil ?? .distantFuture, $0.bundleID) < ($1.launchesUntil ?? .distantFuture, $1.bundleID) }
        return ReportData(asOf: asOf, days: days, teamID: teamID, catalogue: catalogue,
                          lastIngest: try queries.lastSuccessfulIngest(),
                          failedRun: try queries.runs(limit: 1, host: nil).first { $0.status == .failed || $0.status == .partial },
                          profiles: profiles,
                          certificates: certificates, builds: builds)
    }

    /// Profiles expiring within the window (not yet expired), soonest first, superseded ones
    /// included and marked.
    var expiringSoon: [Item] { profiles.filter(\.status.isInWindow) }
    /// Profiles already expired but still installed, the latest to expire first.
    var expiredInstalled: [Item] { profiles.filter { $0.status == .expired }.reversed() }
    /// Certificates in use that expire within the window, soonest first.
    var certificatesInWindow: [Item] { certificates.filter(\.status.isInWindow) }
    /// Certificates in use that have expired, the latest to expire first.
    var expiredCertificates: [Item] { certificates.filter { $0.status == .expired }.reversed() }
    /// The latest builds still launching (or with no embedded profile to say), soonest to stop first.
    var launchingBuilds: [Build] { builds.filter { $0.status != .expired } }
    /// The latest builds that no longer launch, the latest to stop first.
    var expiredBuilds: [Build] { builds.filter { $0.status == .expired }.reversed() }
    /// Everything on the timeline: profiles and certificates expiring within the window; what has
    /// expired is counted apart, not drawn at the timeline's start.
    var timelineItems: [Item] { (expiringSoon + certificatesInWindow).sorted { $0.expires < $1.expires } }

    /// The commands that list exactly what the report counts: the expired installed profiles, the
    /// expired certificates in use, the apps whose latest build no longer launches; and in full,
    /// the tables it cuts.
    var expiredProfilesCommand: String { command("profiles --installed --expired") }
    var expiredCertificatesCommand: String { command("certificates --in-use --expired") }
    var expiredBuildsCommand: String { command("builds --latest --expired") }
    var expiringProfilesCommand: String { command("expiring --days \(days) --include-superseded") }
    var expiringCertificatesCommand: String { command("certificates --in-use --expiring --days \(days)") }
    var launchingBuildsCommand: String { command("builds --latest --launching") }

    /// The command that lists one of the report's groups in full, for the same day and team:
    /// `catalog` and `arguments`, then `--as-of` (the report's day; the day rule makes any time on
    /// it equivalent) and `--team`.
    func command(_ arguments: String) -> String {
        "catalog \(arguments) --as-of \(ISO8601.format(asOf).prefix(10))" + (teamID.map { " --team \($0)" } ?? "")
    }

    /// Installed profiles by kind (rows) and status (columns).
    var countsByKind: [(kind: String, counts: [Status: Int])] {
        ProfileKind.allCases.map(\.rawValue).compactMap { kind in
            let ofKind = profiles.filter { $0.kind == kind }
            guard !ofKind.isEmpty else { return nil }
            return (kind, Dictionary(grouping: ofKind, by: \.status).mapValues(\.count))
        }
    }

    /// The catalogue's age at the time the report is made (not `asOf`), when it has been ingested.
    func age(now: Date = Date()) -> TimeInterval? { lastIngest.map { now.timeIntervalSince($0) } }
    var isStale: Bool { (age() ?? .infinity) > MaxAge.noticeAfter }
}
