import CatalogTestSupport
import Foundation
import Testing

/// Builds know when they stop launching: the embedded profile's kind and effective expiry on
/// `builds` and `versions`, `expiring --builds`, and the builds a device can install.
@Suite(.timeLimit(.minutes(10))) struct BuildExpiryTests {
    typealias Catalogue = QueryCommandTests.Catalogue

    static let adhoc = "080B4AFF-C595-4955-AEED-8B8810E698FC"
    static let widget = "4C8FEABD-CB00-430B-A481-B35AEC317985"

    @Test func buildsAndVersionsShowWhenTheyStopLaunching() throws {
        let catalogue = try Catalogue()
        let profiles = Dictionary(uniqueKeysWithValues: try catalogue.records(["profiles", "--include-removed"]).compactMap { profile in
            (profile["uuid"] as? String).map { ($0, profile) }
        })
        let builds = try catalogue.records(["builds", "--as-of", "2026-11-20"])
        #expect(!builds.isEmpty)
        for build in builds {
            guard let uuid = build["profile_uuid"] as? String, let profile = profiles[uuid] else {
                #expect(build["launches_until"] is NSNull)
                continue
            }
            #expect(build["launches_until"] as? String == profile["effective_expiration_date"] as? String)
            #expect(build["profile_kind"] as? String == profile["kind"] as? String)
            #expect(build["profile_superseded_by"] is NSNull)
            let until = QueryCommandTests.date(build["launches_until"] as? String ?? "")
            #expect(build["days_left"] as? Int == QueryCommandTests.daysLeft(until, from: QueryCommandTests.date("2026-11-20")))
        }
        let versions = try catalogue.records(["versions", "com.example.app"])
        #expect(versions.first { $0["short_version"] as? String == "1.3" }?["launches_until"] as? String == "2027-01-15T10:00:00Z")
        #expect(versions.first { $0["short_version"] as? String == "2.0" }?["profile_kind"] as? String == "ad-hoc")
        let table = try catalogue.run(["builds", "--format", "table"])
        #expect(table.stdout.contains("LAUNCHES UNTIL"))
    }

    @Test(arguments: [("2026-11-20", 30), ("2026-11-20", 60), ("2027-06-01", 30)])
    func expiringBuildsListsThePresentBuildsThatStopLaunchingInTheWindow(asOf: String, days: Int) throws {
        let catalogue = try Catalogue()
        let start = QueryCommandTests.date(asOf)
        let expected = try catalogue.records(["builds"]).filter { build in
            guard let text = build["launches_until"] as? String else { return false }
            return QueryCommandTests.inWindow(QueryCommandTests.date(text), asOf: start, days: days)
        }.compactMap { $0["path"] as? String }
        let listed = try catalogue.records(["expiring", "--builds", "--as-of", asOf, "--days", String(days)])
        #expect(Set(listed.compactMap { $0["path"] as? String }) == Set(expected))
        #expect(listed.allSatisfy { $0["type"] as? String == "build" })
        let dates = listed.compactMap { $0["launches_until"] as? String }
        #expect(dates == dates.sorted(), "soonest first")
        let status = try catalogue.run(["expiring", "--builds", "--as-of", asOf, "--days", String(days), "--exit-code", "--json"]).status
        #expect(status == (expected.isEmpty ? 0 : 2))
    }

    @Test func aDeviceSeesTheBuildsItCanInstall() throws {
        let catalogue = try Catalogue()
        // A device the ad-hoc profile lists (it is embedded in Example.app, its widget and the IPA).
        let detail = try CatalogProcess.json(try catalogue.run(["show", Self.adhoc, "--json"]).stdout) as? [String: Any] ?? [:]
        let udid = try #require((detail["devices"] as? [String])?.first)
        func installable(_ asOf: String) throws -> [[String: Any]] {
            try catalogue.records(["devices", udid.uppercased(), "--as-of", asOf]).filter { $0["type"] as? String == "build" }
        }
        let now = try installable("2026-11-20")
        #expect(Set(now.compactMap { $0["profile_uuid"] as? String }) == [Self.adhoc, Self.widget])
        #expect(!now.contains { $0["source_kind"] as? String == "xcarchive" }, "an App Store build installs from the store only")
        #expect(try installable("2027-01-01").isEmpty, "an expired profile installs nothing")
        let profiles = try catalogue.records(["devices", udid, "--as-of", "2026-11-20"]).filter { $0["type"] as? String == "profile" }
        #expect(profiles.contains { $0["uuid"] as? String == Self.adhoc })
        let table = try catalogue.run(["devices", udid, "--as-of", "2026-11-20", "--format", "table"])
        #expect(table.stdout.contains("Builds this device can install:"))
    }
}
