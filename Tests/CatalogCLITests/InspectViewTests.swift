import CatalogTestSupport
import Foundation
import Testing

/// `show`, `decode` and `stats` as a person reads them: aligned fields, absent values as `–`,
/// entitlements as `key = value`, lists as sections of rows — and no JSON anywhere, CSV included.
@Suite(.timeLimit(.minutes(10))) struct InspectViewTests {
    typealias Catalogue = QueryCommandTests.Catalogue
    static let adhoc = "080B4AFF-C595-4955-AEED-8B8810E698FC"

    @Test func showAsAnInspectView() throws {
        let catalogue = try Catalogue()
        let result = try catalogue.run(["show", Self.adhoc, "--format", "table", "--as-of", "2026-11-20"])
        #expect(result.status == 0, "\(result.stderr)")
        let text = result.stdout
        #expect(!text.contains("{") && !text.contains("\"path\""), "no JSON in the view")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains { $0.hasPrefix("name ") && $0.hasSuffix("  Example App AdHoc") })
        #expect(lines.contains { $0.hasPrefix("effective_expiration_date ") && $0.hasSuffix("2026-12-01 (in 11 days)") })
        #expect(lines.contains { $0.hasPrefix("app_id_name") }, "every field is shown")
        #expect(!lines.contains { $0.hasPrefix("id ") }, "no internal ids")
        // Sections.
        for heading in ["entitlements", "certificates", "devices", "locations", "builds"] {
            #expect(lines.contains(heading), "\(heading) section")
        }
        #expect(lines.contains { $0.hasPrefix("  aps-environment ") && $0.hasSuffix(" = production") })
        #expect(lines.contains { $0.hasPrefix("  keychain-access-groups ") && $0.hasSuffix(" = TEAM123456.*, com.apple.token") })
        #expect(lines.contains("  5f330264dc8133e0af2a2ce52f1b2e23b81cf3f4"), "devices one per line")
        #expect(lines.contains { $0.contains("Apple Distribution") && $0.contains("2027-11-20") && $0.contains("in 365 days") })
        #expect(lines.contains { $0.contains("ios-adhoc.mobileprovision") && $0.contains("standalone") })
        // Absent values as –.
        let legacy = try catalogue.run(["show", "710905E4-A5D8-4F5D-A37E-E84F4BE086E2", "--format", "table"]).stdout
        #expect(legacy.split(separator: "\n").contains { $0.hasPrefix("ppq_check ") && $0.hasSuffix("  –") }, "\(legacy)")
    }

    @Test func decodeAndStatsAsInspectViews() throws {
        let decoded = try CatalogProcess.run(["decode", "--format", "table", CatalogProcess.fixtures + "/profiles/ios-development.mobileprovision"])
        #expect(decoded.status == 0)
        #expect(!decoded.stdout.contains("{"))
        #expect(decoded.stdout.contains("\nentitlements\n") && decoded.stdout.contains(" = applinks:example.com"))
        let catalogue = try Catalogue()
        let stats = try catalogue.run(["stats", "--format", "table"]).stdout
        #expect(!stats.contains("{"))
        #expect(stats.split(separator: "\n").contains { $0.hasPrefix("profiles ") })
        #expect(stats.contains("\nlast_run\n") && stats.contains("  status") && stats.contains("= ok"))
    }

    @Test func showAsCSVHasNoJSONInItsCells() throws {
        let catalogue = try Catalogue()
        let csv = try catalogue.run(["show", Self.adhoc, "--format", "csv"]).stdout
        let rows = csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(rows.count == 2)
        #expect(!csv.contains("{") && !csv.contains("\"path\""))
        #expect(rows[0].contains(",entitlements.aps-environment,") && rows[1].contains(",production,"), "entitlements flattened")
        #expect(rows[0].contains(",locations.path,") && csv.contains("/Fixtures/profiles/ios-adhoc.mobileprovision"),
                "locations one column per key")
    }

    @Test func aRepeatedDeviceIsCountedAsWrittenAndListedOnce() throws {
        let catalogue = try Catalogue()
        let detail = try #require(try CatalogProcess.json(try catalogue.run(["show", Self.adhoc, "--json"]).stdout) as? [String: Any])
        let devices = detail["devices"] as? [String] ?? []
        let count = detail["device_count"] as? Int ?? -1
        #expect(detail["duplicate_devices"] as? Int == count - devices.count)
        #expect(detail["id"] == nil, "no internal ids")
    }
}
