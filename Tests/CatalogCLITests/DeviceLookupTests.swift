import CatalogTestSupport
import Foundation
import Testing

/// Issue 52 §6: `devices UDID` takes only what Apple writes as a device identifier, lists nothing
/// for a device no profile lists, and offers a device only builds for its own platform.
@Suite(.timeLimit(.minutes(10))) struct DeviceLookupTests {
    typealias Catalogue = QueryCommandTests.Catalogue

    @Test func whatIsNoUDIDIsAUsageErrorNamingTheForms() throws {
        let catalogue = try Catalogue()
        for text in ["nonsense", "cf2a7c46a4133dc358388825e5778ad368eb9c0", "0000A97E_CBF4A331C558A196", "g000a97e-cbf4a331c558a196"] {
            let result = try catalogue.run(["devices", text])
            #expect(result.status == 64, "\(text)")
            #expect(result.stderr.contains("40 hex digits") && result.stderr.contains("UUID"), "\(result.stderr)")
        }
    }

    @Test func aWellFormedUnknownDeviceListsNothing() throws {
        let catalogue = try Catalogue()
        for udid in [String(repeating: "ab", count: 20), "00008030-001A2B3C4D5E6F70", "6F1C2E6A-1B0E-4C41-9E53-2D3B4A5C6D7E"] {
            let result = try catalogue.run(["devices", udid, "--json", "--as-of", "2026-11-20"])
            #expect(result.status == 0, "\(udid): \(result.stderr)")
            #expect((try CatalogProcess.json(result.stdout) as? [Any])?.isEmpty == true, "\(udid): \(result.stdout)")
        }
    }

    /// A Developer ID app provisions every Mac, not every device: an iPhone is not offered it.
    @Test func aDeviceIsOfferedOnlyBuildsOfItsPlatform() throws {
        let scratch = try Scratch()
        let mac = try scratch.copyFixtures("codesign/SignedMac.app", to: "tree/SignedMac.app")
        try FileManager.default.removeItem(atPath: mac + "/Contents/embedded.provisionprofile")
        try FileManager.default.copyItem(atPath: CatalogProcess.fixtures + "/profiles/macos-developer-id.provisionprofile",
                                         toPath: mac + "/Contents/embedded.provisionprofile")
        let iphone = try scratch.copyFixtures("bundles/Example.app", to: "tree/Example.app")
        let db = scratch.file("catalog.sqlite")
        #expect(try CatalogProcess.run(["ingest", scratch.file("tree"), "--db", db, "--quiet"]).status == 0)
        for udid in ["cf2a7c46a4133dc358388825e5778ad368eb9c0d", "0000a97e-cbf4a331c558a196"] {
            let result = try CatalogProcess.run(["devices", udid, "--db", db, "--json", "--as-of", "2026-11-20"])
            let rows = try CatalogProcess.json(result.stdout) as? [[String: Any]] ?? []
            let builds = rows.filter { $0["type"] as? String == "build" }.compactMap { $0["path"] as? String }
            #expect(builds.contains(iphone), "\(udid): \(builds)")
            #expect(!builds.contains(mac), "\(udid): a Developer ID Mac app offered to an iPhone")
        }
    }
}
