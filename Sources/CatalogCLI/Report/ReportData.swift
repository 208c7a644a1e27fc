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
        var launchesUntil: Date?
        var daysLeft: Int?
        var status: Status?
        var profileKind: String?
        var path: String
    }

    var asOf: Date
    /// The window: `days_left` 0 through `days` (README, "Days").
    var days: Int
    /// The last second of the window.
    var end: Date { DaysLeft.end(days, after: asOf) }
    var teamID: String?
    var catalogue: String
    var lastIngest: Date?
    /// Every installed profile, soonest expiry first.
    var profiles: [Item]
    /// Certificates used by installed profiles that expire by the window's end, soonest first.
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
        filter.expiringBy = .distantFuture
        let profiles = try queries.profiles(filter).compactMap { profile -> Item? in
            guard let date = profile.effectiveExpirationDate else { return nil }
            return Item(isCertificate: false, name: profile.name, teamID: profile.teamID ?? "–",
                        subject: profile.bundleID ?? profile.applicationIdentifier ?? "–",
                        identifier: profile.uuid, kind: profile.kind.rawValue,
                        expires: date, daysLeft: daysLeft(date), status: status(date),
                        supersededBy: profile.supersededBy, profileCount: 0)
        }
        let certificates = try queries.expiringCertificates(from: DaysLeft.start(asOf), to: end, includeExpired: true, scope: .installed,
                                                            teamID: teamID).compactMap { certificate -> Item? in
            guard let date = certificate.notAfter else { return nil }
            return Item(isCertificate: true, name: certificate.commonName ?? "", teamID: certificate.teamID ?? "–",
                        subject: "certificates", identifier: certificate.sha1, kind: "certificate",
                        expires: date, daysLeft: daysLeft(date), status: status(date),
                        supersededBy: nil, profileCount: certificate.profileCount ?? 0)
        }
        var buildFilter = CatalogQueries.BuildFilter()
        buildFilter.teamID = teamID
        buildFilter.now = asOf
        var seen = Set<String>()
        let builds = try queries.builds(buildFilter).compactMap { build -> Build? in
            // Newest version first per app: the first row of each bundle id is its latest build.
            guard let bundle = build.bundleID, build.parentBundleID == nil, seen.insert(bundle.lowercased()).inserted else {
                return nil
            }
            let until = build.launchesUntil
            return Build(bundleID: bundle, version: build.formattedVersion, source: build.sourceKind.rawValue,
                         launchesUntil: until, daysLeft: until.map(daysLeft), status: until.map(status),
                         profileKind: build.profileKind?.rawValue, path: build.path)
        }.sorted { ($0.launchesUntil ?? .distantFuture, $0.bundleID) < ($1.launchesUntil ?? .distantFuture, $1.bundleID) }
        return ReportData(asOf: asOf, days: days, teamID: teamID, catalogue: catalogue,
                          lastIngest: try queries.lastSuccessfulIngest(), profiles: profiles,
                          certificates: certificates, builds: builds)
    }

    /// Profiles expiring within the window (not yet expired), superseded ones included and marked.
    var expiringSoon: [Item] { profiles.filter { $0.status == .week || $0.status == .window } }
    /// Profiles already expired but still installed.
    var expiredInstalled: [Item] { profiles.filter { $0.status == .expired } }
    /// Everything on the timeline: profiles and certificates expiring by the window's end.
    var timelineItems: [Item] { (profiles.filter { $0.status != .later } + certificates).sorted { $0.expires < $1.expires } }

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
