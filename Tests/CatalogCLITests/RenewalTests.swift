import CatalogTestSupport
import Foundation
import Testing

/// Renewed profiles stop alerting: a profile superseded by a present renewal (same team, app id,
/// kind and platform, later effective expiry) leaves `expiring`, and is marked everywhere else.
/// Fixtures: `Fixtures/renewals/`, made by `Fixtures/scripts/make_renewals.py`.
@Suite struct RenewalTests {
    typealias Catalogue = QueryCommandTests.Catalogue

    static let adhocOld = "44C6C3D6-6720-46AD-AD64-9FC192DFFA1E"
    static let adhocNew = "4AA98B40-F571-4848-AF74-0DF1523AE283"
    static let wildcardOld = "91B8EB25-2D8A-427D-AB52-082426516FFF"
    static let wildcardNew = "510AD1F3-691F-4BF3-AF63-F9D81D66FF98"
    static let window = ["expiring", "--as-of", "2026-11-20", "--days", "30"]

    static func profiles(_ records: [[String: Any]]) -> [String: Any] {
        Dictionary(records.filter { $0["type"] as? String == "profile" }.compactMap { record in
            (record["uuid"] as? String).map { ($0, record["superseded_by"] as Any) }
        }, uniquingKeysWith: { first, _ in first })
    }

    /// A catalogue of a temp folder holding copies of the named renewal fixtures.
    static func tree(_ names: [String]) throws -> (folder: String, catalogue: Catalogue) {
        let folder = TestPaths.temporary + "catalog-renewals-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(atPath: CatalogProcess.fixtures + "/renewals/\(name).mobileprovision",
                                             toPath: folder + "/\(name).mobileprovision")
        }
        return (folder, try Catalogue(ingesting: [folder]))
    }

    @Test func aPresentRenewalSupersedesAndSilencesTheOldProfile() throws {
        let catalogue = try Catalogue()
        let listed = Self.profiles(try catalogue.records(Self.window))
        #expect(listed[Self.adhocOld] == nil, "a renewed profile must not alert")
        #expect(listed["080B4AFF-C595-4955-AEED-8B8810E698FC"] is NSNull, "an unrenewed one still does, superseded_by null")
        let all = Self.profiles(try catalogue.records(Self.window + ["--include-superseded"]))
        #expect(all[Self.adhocOld] as? String == Self.adhocNew)
        #expect(all[Self.wildcardOld] as? String == Self.wildcardNew, "a wildcard app id renews like any other")
        let table = try catalogue.run(Self.window + ["--include-superseded", "--format", "table"])
        #expect(table.stdout.contains("SUPERSEDED BY") && table.stdout.contains(Self.adhocNew))

        #expect(Set(Self.profiles(try catalogue.records(["profiles", "--superseded"])).keys) == [Self.adhocOld, Self.wildcardOld])
        let current = Self.profiles(try catalogue.records(["profiles", "--current"]))
        #expect(current[Self.adhocNew] != nil && current[Self.adhocOld] == nil)
        #expect(current.values.allSatisfy { $0 is NSNull })
        #expect(try catalogue.run(["profiles", "--superseded", "--current"]).status == 64)
    }

    @Test func aRenewalRemovedAgainNoLongerSupersedes() throws {
        let (folder, catalogue) = try Self.tree(["renew-adhoc-old", "renew-adhoc-new"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(Self.profiles(try catalogue.records(Self.window))[Self.adhocOld] == nil)
        #expect(try catalogue.run(Self.window + ["--exit-code"]).status == 0, "nothing to renew: no alert")
        try FileManager.default.removeItem(atPath: folder + "/renew-adhoc-new.mobileprovision")
        #expect(try catalogue.run(["ingest", folder]).status == 0)
        let listed = Self.profiles(try catalogue.records(Self.window))
        #expect(listed.keys.contains(Self.adhocOld))
        #expect(listed[Self.adhocOld] is NSNull)
        #expect(try catalogue.run(Self.window + ["--exit-code"]).status == 2)
    }

    @Test func aLaterProfileOfAnotherKindIsNotARenewal() throws {
        let (folder, catalogue) = try Self.tree(["renew-adhoc-old", "renew-development"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let listed = Self.profiles(try catalogue.records(Self.window))
        #expect(listed.keys.contains(Self.adhocOld))
        #expect(listed[Self.adhocOld] is NSNull)
        #expect(try catalogue.records(["profiles", "--superseded"]).isEmpty)
    }
}
