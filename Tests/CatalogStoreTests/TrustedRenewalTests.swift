import CatalogCore
import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// A profile renews (supersedes) another only when its signature is trusted at least as much:
/// `verified` > `untrusted` > `unsigned` (and never verified); `invalid` and `error` renew nothing.
/// Superseded-by, `show`'s renewals, the ingest's renewal count and prune's "newest of its app id"
/// agree, on SQLite and PostgreSQL, and the writer names each claim on a verified profile that its
/// signature refuses — in either order of arrival.
@Suite(.timeLimit(.minutes(10))) struct TrustedRenewalTests {
    private static let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01

    private static func day(_ n: Int) -> Date { start.addingTimeInterval(Double(n) * 86_400) }

    /// A development profile of app `app` (team TEAM000001) expiring on `day(expires)`.
    private static func profile(_ uuid: String, app: String, expires: Int,
                                _ signature: ProfileSignature.Status?) -> ProvisioningProfile {
        var profile = ProvisioningProfile(
            uuid: uuid, name: "Profile \(uuid)", appIDName: app, applicationIdentifierPrefixes: ["TEAM000001"],
            teamIdentifiers: ["TEAM000001"], teamName: "Team", platforms: ["iOS"], creationDate: start,
            expirationDate: day(expires), devices: ["D1"], provisionsAllDevices: false, xcodeManaged: false,
            ppqCheck: false, timeToLive: 365, version: 1,
            entitlements: PlistDictionary([("application-identifier", .string("TEAM000001.com.example.\(app)")),
                                           ("get-task-allow", .bool(true))]),
            certificates: [], derEncodedProfile: nil, unknownKeys: PlistDictionary(),
            rawPlist: Array("<plist/>".utf8), envelopeCertificateCount: 0)
        profile.sha256 = Digest.sha256Hex(Array(uuid.utf8))
        profile.signature = signature.map { ProfileSignature($0, "test") }
        return profile
    }

    typealias Refused = CatalogWriter.RefusedRenewal

    /// One ingest run writing `profiles` (each with a standalone location) into `catalogue`, as the
    /// ingester does: what each upsert returned and the refused renewals it noted, by UUID, and
    /// those noted at the end of the run.
    private static func run(_ catalogue: Catalogue, _ profiles: [ProvisioningProfile])
        throws -> (changes: [String: (CatalogWriter.ProfileChange, [Refused])], atEnd: [Refused]) {
        let writer = catalogue.writer
        return try catalogue.writeRun {
            let run = try writer.beginRun(roots: ["/p"], at: day(0))
            var changes: [String: (CatalogWriter.ProfileChange, [Refused])] = [:]
            for profile in profiles {
                let change = try writer.upsertProfile(profile, at: day(0))
                changes[profile.uuid] = (change, writer.takeRefusedRenewals())
                try writer.recordLocation(path: "/p/\(profile.uuid).mobileprovision", profileUUID: profile.uuid,
                                          containerKind: .standalone, containerPath: nil, size: 1, mtime: day(0),
                                          sha256: profile.sha256, at: day(0))
            }
            try writer.noteRefusedRenewalsOfFirstRun()
            let atEnd = writer.takeRefusedRenewals()
            try writer.finishRun(run, counts: RunCounts(), status: .ok, at: day(0))
            return (changes, atEnd)
        }
    }

    /// The superseding UUID of each present profile (nil: none), as every listing reads it.
    private static func supersededBy(_ queries: CatalogQueries) throws -> [String: String?] {
        var filter = CatalogQueries.ProfileFilter()
        filter.scope = .any
        return Dictionary(uniqueKeysWithValues: try queries.profiles(filter).map { ($0.uuid, $0.supersededBy) })
    }

    private static func renewals(_ queries: CatalogQueries, _ uuid: String) throws -> [String] {
        try queries.profileDetail(uuid: uuid)?.renewals.map { "\($0.relation.rawValue) \($0.uuid)" } ?? []
    }

    private static func scenario(_ catalogue: Catalogue, host: String) throws {
        let queries = catalogue.queries
        // Run 1: a verified profile, an untrusted one, an unsigned one, one never verified.
        // Run 1, into an empty catalogue: a verified profile, an untrusted one, an unsigned one, one
        // never verified, and a pair where a bare file claims a verified profile of the same run.
        let (first, firstAtEnd) = try run(catalogue, [
            profile("A-VERIFIED", app: "a", expires: 100, .verified),
            profile("B-OLD", app: "b", expires: 100, .untrusted),
            profile("C-BARE", app: "c", expires: 300, .unsigned),
            profile("D-OLD", app: "d", expires: 100, nil),
            profile("E-BARE", app: "e", expires: 300, .unsigned),
            profile("E-VERIFIED", app: "e", expires: 100, .verified),
        ])
        #expect(first.values.allSatisfy { $0.0 == .new && $0.1.isEmpty }, "a first run counts no renewal, and looks at its end")
        #expect(firstAtEnd == [Refused(claimant: "E-BARE", claimantSignature: .unsigned, verified: "E-VERIFIED",
                                       path: "/p/E-BARE.mobileprovision")])

        // Run 2: later profiles anyone could write claim A; B is renewed by one signed as it is.
        let (second, secondAtEnd) = try run(catalogue, [
            profile("A-UNSIGNED", app: "a", expires: 200, .unsigned),
            profile("A-INVALID", app: "a", expires: 300, .invalid),
            profile("A-ERROR", app: "a", expires: 350, .error),
            profile("B-NEW", app: "b", expires: 200, .untrusted),
            profile("B-BARE", app: "b", expires: 300, .unsigned),
            profile("C-VERIFIED", app: "c", expires: 100, .verified),
            profile("D-NEW", app: "d", expires: 200, nil),
        ])
        #expect(second["A-UNSIGNED"]?.0 == .new)
        #expect(second["A-UNSIGNED"]?.1 == [Refused(claimant: "A-UNSIGNED", claimantSignature: .unsigned, verified: "A-VERIFIED")])
        #expect(second["A-INVALID"]?.1 == [Refused(claimant: "A-INVALID", claimantSignature: .invalid, verified: "A-VERIFIED")])
        #expect(second["A-ERROR"]?.1 == [Refused(claimant: "A-ERROR", claimantSignature: .error, verified: "A-VERIFIED")])
        #expect(second["B-NEW"]?.0 == .renewed, "untrusted renews untrusted")
        #expect(second["B-BARE"]?.0 == .new && second["B-BARE"]?.1 == [], "unsigned renews no untrusted profile")
        // The verified profile arrives after the file that claims it: the same claim, named then.
        #expect(second["C-VERIFIED"]?.1 == [Refused(claimant: "C-BARE", claimantSignature: .unsigned, verified: "C-VERIFIED")])
        #expect(second["D-NEW"]?.0 == .renewed, "never verified counts as unsigned")
        #expect(secondAtEnd.isEmpty, "each claim is named once")

        let superseded = try supersededBy(queries)
        #expect(superseded["A-VERIFIED"] == .some(nil), "nothing but a verified profile supersedes a verified one")
        #expect(superseded["A-UNSIGNED"] == .some(nil), "invalid and error supersede nothing")
        #expect(superseded["A-INVALID"] == .some(nil))
        #expect(superseded["B-OLD"] == .some("B-NEW"))
        #expect(superseded["B-NEW"] == .some(nil))
        #expect(superseded["C-VERIFIED"] == .some(nil) && superseded["C-BARE"] == .some(nil))
        #expect(superseded["D-OLD"] == .some("D-NEW"))
        #expect(try renewals(queries, "A-VERIFIED") == [])
        #expect(try renewals(queries, "B-NEW") == ["older B-OLD"])

        // Prune at day 150: A-VERIFIED has expired, but no profile trusted as much expires later:
        // still the newest of its app id, kept; B-OLD is expired and superseded.
        let candidates = Dictionary(uniqueKeysWithValues: try queries.pruneCandidates(now: day(150), host: host).map { ($0.uuid, $0) })
        #expect(candidates["A-VERIFIED"]?.isNewestOfAppID == true)
        #expect(candidates["A-VERIFIED"]?.supersededBy == nil)
        #expect(candidates["B-OLD"]?.supersededBy == "B-NEW" && candidates["B-OLD"]?.isNewestOfAppID == false)

        // Run 3: Apple's renewal of A supersedes it and every less trusted profile of A.
        let third = try run(catalogue, [profile("A-RENEWAL", app: "a", expires: 400, .verified)]).changes
        #expect(third["A-RENEWAL"]?.0 == .renewed && third["A-RENEWAL"]?.1 == [])
        let renewed = try supersededBy(queries)
        for uuid in ["A-VERIFIED", "A-UNSIGNED", "A-INVALID", "A-ERROR"] {
            #expect(renewed[uuid] == .some("A-RENEWAL"), "\(uuid)")
        }
        #expect(try renewals(queries, "A-VERIFIED") == ["newer A-RENEWAL"])
        #expect(try renewals(queries, "A-RENEWAL") == ["older A-VERIFIED", "older A-UNSIGNED", "older A-INVALID", "older A-ERROR"])
        #expect(try queries.pruneCandidates(now: day(150), host: host).first { $0.uuid == "A-VERIFIED" }?.supersededBy == "A-RENEWAL")
    }

    @Test func sqliteRenewsOnlyWhatItsSignatureMayRenew() throws {
        let folder = try Scratch()
        try Self.scenario(try Catalogue.openForWriting(path: folder.file("catalog.sqlite")), host: "")
    }

    @Test(.enabled(if: PostgresTestDatabase.enabled, PostgresTestDatabase.skipReason))
    func postgreSQLRenewsOnlyWhatItsSignatureMayRenew() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        try Self.scenario(try Catalogue.openForWriting(path: database.url, host: "build-01", busyTimeout: 10), host: "build-01")
    }

    /// The trust condition is a filter on the rows the supersession index finds, latest first: it
    /// neither sorts a group nor scans the table.
    @Test func theSupersessionIndexStillServesTheSearch() throws {
        let folder = try Scratch()
        let connection = try Connection.openCatalogue(path: folder.file("catalog.sqlite"))
        let plan = try connection.query("EXPLAIN QUERY PLAN SELECT \(CatalogQueries.supersededBy(.sqlite)) FROM profiles p")
            .compactMap { $0.string("detail") }
        #expect(plan.contains {
            $0.hasPrefix("SEARCH o USING") && $0.contains("INDEX profiles_supersession")
                && $0.contains("effective_expiration_date>?")
        }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") || $0.hasPrefix("SCAN o") }, "\(plan)")
    }

    @Test(.enabled(if: PostgresTestDatabase.enabled, PostgresTestDatabase.skipReason))
    func postgreSQLSupersessionIndexStillServesTheSearch() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let catalogue = try Catalogue.openForWriting(path: database.url, host: "build-01", busyTimeout: 10)
        _ = try Self.run(catalogue, (0..<50).map { Self.profile("P-\($0)", app: "a\($0 % 5)", expires: $0, .verified) })
        let connection = try database.connect()
        // A table this small is cheaper to sort than to search: the planner is asked for the plan
        // that reads the index in order, which it finds only if the condition allows one.
        for setting in ["enable_seqscan", "enable_bitmapscan", "enable_sort"] { try connection.execute("SET \(setting) = off") }
        let plan = try connection.query("EXPLAIN SELECT \(CatalogQueries.supersededBy(.postgreSQL)) FROM profiles p")
            .compactMap { $0.values.first.flatMap { if case .text(let line) = $0 { line } else { nil } } }
        #expect(plan.contains { $0.contains("Index Scan Backward using profiles_supersession on profiles o") }, "\(plan)")
        #expect(!plan.contains { $0.contains("Sort") }, "\(plan)")
    }
}
