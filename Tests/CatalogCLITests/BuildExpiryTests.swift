import CatalogTestSupport
import Foundation
import Testing

/// Builds know when they stop launching, by how they are distributed (docs/trust.md, "When a build
/// stops launching"): the limit the ingest judged on `builds` and `versions`, `expiring --builds`,
/// the report, `verify`, and the builds a device can install.
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
                #expect(build["launches_until"] is NSNull && build["launches_until_cause"] is NSNull)
                continue
            }
            #expect(build["profile_kind"] as? String == profile["kind"] as? String)
            #expect(build["profile_superseded_by"] is NSNull)
            #expect((build["launches_until_reason"] as? String)?.isEmpty == false)
            #expect((build["launches_until_executable"] as? String)?.isEmpty == false)
            if profile["kind"] as? String == "app-store" {
                // The App Store re-signs what users install: nothing stops it.
                #expect(build["launches_until"] is NSNull && build["days_left"] is NSNull)
                #expect(build["launches_until_cause"] as? String == "app-store")
                continue
            }
            // These builds' executables carry no signing certificate, and their nested bundles' profiles
            // expire no sooner: the app's profile's own expiry decides.
            #expect(build["launches_until"] as? String == profile["expiration_date"] as? String, "\(build["path"] ?? "")")
            #expect(build["launches_until_cause"] as? String == "profile")
            let until = QueryCommandTests.date(build["launches_until"] as? String ?? "")
            #expect(build["days_left"] as? Int == QueryCommandTests.daysLeft(until, from: QueryCommandTests.date("2026-11-20")))
        }
        let versions = try catalogue.records(["versions", "com.example.app"])
        // 1.3 is Example.xcarchive, an App Store build (its profile expires 2027-01-15).
        let store = try #require(versions.first { $0["short_version"] as? String == "1.3" })
        #expect(store["launches_until"] is NSNull && store["profile_kind"] as? String == "app-store")
        #expect(versions.first { $0["short_version"] as? String == "2.0" }?["launches_until"] as? String == "2026-12-01T10:00:00Z")
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

    // MARK: The rules, on builds made from the fixtures

    /// `old_b`'s notAfter: `codesign/ExpiredCertificate.app` is signed by it.
    static let oldB = "2026-05-15T12:00:00Z"

    /// `cert-expires-first`'s plist as a bare profile of its own (new UUID, no DER copy) that also
    /// lists `dev_jane`, valid until 2027-12-01: the latest certificate it lists then outlives the
    /// profile (2027-01-15), so its effective expiry is the profile's, while `old_b` still signs.
    static func profileListingALaterCertificate() throws -> [UInt8] {
        let envelope = try Data(contentsOf: URL(fileURLWithPath: CatalogProcess.fixtures + "/profiles/cert-expires-first.mobileprovision"))
        let text = String(decoding: envelope, as: UTF8.self)
        let start = try #require(text.range(of: "<?xml")), end = try #require(text.range(of: "</plist>"))
        var plist = String(text[start.lowerBound..<end.upperBound])
        let jane = try Data(contentsOf: URL(fileURLWithPath: CatalogProcess.fixtures + "/certs/dev_jane.der")).base64EncodedString()
        let list = "<key>DeveloperCertificates</key>\n\t<array>\n"
        #expect(plist.contains(list) && plist.contains(Self.certExpiresFirst))
        plist = plist.replacingOccurrences(of: list, with: list + "\t\t<data>\(jane)</data>\n")
            .replacingOccurrences(of: Self.certExpiresFirst, with: Self.laterCertificateProfile)
        if let der = plist.range(of: "<key>DER-Encoded-Profile</key>"), let close = plist.range(of: "</data>", range: der.upperBound..<plist.endIndex) {
            plist.removeSubrange(der.lowerBound..<close.upperBound)
        }
        return Array(plist.utf8)
    }

    static let certExpiresFirst = "B426B646-3C57-48D1-AA9E-D2ACBAFBB8C6"
    static let laterCertificateProfile = "B426B646-3C57-48D1-AA9E-D2ACBAFB0051"

    static func first(_ records: [[String: Any]], path: String) throws -> [String: Any] {
        try #require(records.first { $0["path"] as? String == path }, "\(path) in \(records.compactMap { $0["path"] })")
    }

    @Test func aBuildStopsWhenItsSigningCertificateExpiresWhateverLaterOneItsProfileLists() throws {
        let scratch = try Scratch()
        let app = try scratch.copyFixtures("codesign/ExpiredCertificate.app", to: "tree/ExpiredCertificate.app")
        try scratch.write("tree/ExpiredCertificate.app/embedded.mobileprovision", try Self.profileListingALaterCertificate())
        let catalogue = try Catalogue(ingesting: [scratch.file("tree")])
        let profile = try #require(try catalogue.records(["profiles"]).first { $0["uuid"] as? String == Self.laterCertificateProfile })
        // What `builds` said before: the profile's effective expiry, by its latest certificate.
        #expect(profile["effective_expiration_date"] as? String == "2027-01-15T10:00:00Z")
        #expect(profile["kind"] as? String == "development")

        let build = try Self.first(try catalogue.records(["builds", "--as-of", "2026-05-01"]), path: app)
        #expect(build["launches_until"] as? String == Self.oldB)
        #expect(build["launches_until_cause"] as? String == "certificate")
        #expect(build["launches_until_executable"] as? String == "ExpiredCertificate")
        #expect((build["launches_until_reason"] as? String)?.contains("Apple Development: John Roe (FGHIJ67890)") == true)
        #expect(build["days_left"] as? Int == 14)
        // Listed in the window holding the certificate's date, not in the one before it.
        let window = try catalogue.records(["expiring", "--builds", "--as-of", "2026-05-01", "--days", "30"])
        #expect(window.compactMap { $0["path"] as? String } == [app])
        #expect(try catalogue.records(["expiring", "--builds", "--as-of", "2026-04-01", "--days", "30"]).isEmpty)
        // verify, reading the file now, says the same.
        let verified = try #require((try CatalogProcess.json(try CatalogProcess.run(["verify", app, "--json", "--as-of", "2026-05-01"]).stdout)
            as? [[String: Any]])?.first)
        for key in ["launches_until", "launches_until_cause", "launches_until_executable", "launches_until_reason"] {
            #expect(verified[key] as? String == build[key] as? String, "\(key)")
        }
        #expect(verified["signer_name"] as? String == "Apple Development: John Roe (FGHIJ67890)")
    }

    @Test func anAppStoreBuildNeverStopsLaunching() throws {
        let archive = CatalogProcess.fixtures + "/bundles/Example.xcarchive"
        let catalogue = try Catalogue(ingesting: [archive])
        let build = try Self.first(try catalogue.records(["builds", "--as-of", "2030-01-01"]), path: archive)
        #expect(build["profile_kind"] as? String == "app-store")
        #expect(build["launches_until"] is NSNull && build["days_left"] is NSNull)
        #expect(build["launches_until_cause"] as? String == "app-store")
        #expect((build["launches_until_reason"] as? String)?.contains("App Store re-signs") == true)
        // Years after its profile expired (2027-01-15), it is in no window.
        let expiring = try catalogue.run(["expiring", "--builds", "--include-expired", "--as-of", "2030-01-01", "--days", "3650",
                                          "--exit-code", "--json"])
        let listed = try CatalogProcess.json(expiring.stdout) as? [Any]
        #expect(expiring.status == 0 && listed?.isEmpty == true, "\(expiring.stdout)")
        // The report does not count it as stopping, and says why it shows no date.
        let report = try catalogue.run(["report", "--as-of", "2030-01-01"])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("none (App Store)"), "\(report.stdout)")
        #expect(!report.stdout.contains("no longer launch"), "\(report.stdout)")
    }

    @Test func aNestedBundleThatStopsSoonerDecidesForTheApp() throws {
        let scratch = try Scratch()
        let app = try scratch.copyFixtures("bundles/Example.app", to: "tree/Example.app")
        // The widget's profile swapped for `wildcard` (development, until 2026-07-15); the app's ad-hoc
        // profile runs until 2026-12-01.
        try scratch.copy(CatalogProcess.fixtures + "/profiles/wildcard.mobileprovision", to: "tree/Example.app/PlugIns/Widget.appex/w")
        try FileManager.default.removeItem(atPath: app + "/PlugIns/Widget.appex/embedded.mobileprovision")
        try FileManager.default.moveItem(atPath: app + "/PlugIns/Widget.appex/w", toPath: app + "/PlugIns/Widget.appex/embedded.mobileprovision")
        let catalogue = try Catalogue(ingesting: [scratch.file("tree")])
        let build = try Self.first(try catalogue.records(["builds", "--as-of", "2026-07-01"]), path: app)
        #expect(build["profile_kind"] as? String == "ad-hoc", "the app's own profile")
        #expect(build["launches_until"] as? String == "2026-07-15T10:00:00Z")
        #expect(build["launches_until_cause"] as? String == "profile")
        #expect(build["launches_until_executable"] as? String == "PlugIns/Widget.appex/Widget")
        #expect((build["launches_until_reason"] as? String)?.contains("Example Wildcard Development") == true)
        let window = try catalogue.records(["expiring", "--builds", "--as-of", "2026-07-01", "--days", "30"])
        #expect(window.contains { $0["path"] as? String == app })
        let verified = try #require((try CatalogProcess.json(try CatalogProcess.run(["verify", app, "--json"]).stdout)
            as? [[String: Any]])?.first)
        #expect(verified["launches_until"] as? String == "2026-07-15T10:00:00Z")
        #expect(verified["launches_until_executable"] as? String == "PlugIns/Widget.appex/Widget")
    }

    @Test func aDeveloperIDBuildStopsWithItsProfile() throws {
        let scratch = try Scratch()
        let app = try scratch.copyFixtures("codesign/SignedMac.app", to: "tree/SignedMac.app")
        // SignedMac.app, signed by dev_jane (until 2027-12-01), distributed with the Developer ID profile.
        try FileManager.default.removeItem(atPath: app + "/Contents/embedded.provisionprofile")
        try scratch.copy(CatalogProcess.fixtures + "/profiles/macos-developer-id.provisionprofile",
                         to: "tree/SignedMac.app/Contents/embedded.provisionprofile")
        let catalogue = try Catalogue(ingesting: [scratch.file("tree")])
        let profile = try #require(try catalogue.records(["profiles"]).first { $0["kind"] as? String == "developer-id" })
        let build = try Self.first(try catalogue.records(["builds"]), path: app)
        #expect(build["profile_kind"] as? String == "developer-id")
        #expect(build["launches_until"] as? String == profile["expiration_date"] as? String)
        #expect(build["launches_until_cause"] as? String == "profile")
        #expect((build["launches_until_reason"] as? String)?.contains("Developer ID certificate does not stop") == true)
    }
}
