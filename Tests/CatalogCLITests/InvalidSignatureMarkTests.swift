import CatalogCore
import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogCLI

/// A profile whose signature is `invalid` (its content or signature changed after signing) is marked
/// in every table that shows it — `profiles`, `expiring` and `show` — not only under `signature` in
/// JSON, and keeps the mark on a narrow terminal.
@Suite(.timeLimit(.minutes(10))) struct InvalidSignatureMarkTests {
    static let tampered = "E09EC7A3-325B-40F7-A345-9428DDA4126F"  // signatures/plist-edited
    static let mark = "[tampered] "

    /// A catalogue of a tampered profile and an intact one of the same app.
    static func catalogue() throws -> (folder: String, db: String) {
        let folder = TestPaths.temporary + "catalog-mark-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["plist-edited", "good"] {
            try FileManager.default.copyItem(atPath: CatalogProcess.fixtures + "/signatures/\(name).mobileprovision",
                                             toPath: folder + "/\(name).mobileprovision")
        }
        let db = folder + "/catalog.sqlite"
        #expect(try CatalogProcess.run(["ingest", folder, "--db", db, "--quiet"]).status == 0)
        return (folder, db)
    }

    @Test func tablesMarkATamperedProfile() throws {
        let (folder, db) = try Self.catalogue()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func lines(_ arguments: [String]) throws -> [Substring] {
            let result = try CatalogProcess.run(arguments + ["--db", db, "--format", "table"])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n")
        }
        let window = ["expiring", "--as-of", "2026-12-01", "--days", "60", "--all-locations"]
        for listing in [["profiles"], window] {
            let rows = try lines(listing).dropFirst()
            #expect(rows.count == 2, "\(listing): \(rows)")
            #expect(rows.filter { $0.contains(Self.mark) }.count == 1, "\(listing): \(rows)")
            #expect(rows.first { $0.contains(Self.mark) }?.contains(Self.tampered) == true, "\(listing)")
            #expect(rows.first { $0.contains(Self.mark) }?.contains(Self.mark + "Xxample Signed Profile") == true)
        }
        let show = try lines(["show", Self.tampered])
        #expect(show.contains { $0.hasPrefix("name") && $0.hasSuffix(Self.mark + "Xxample Signed Profile") }, "\(show)")
        let intact = try lines(["show", folder + "/good.mobileprovision"])
        #expect(!intact.contains { $0.contains(Self.mark) })
        // JSON and CSV keep the name as written: the verdict is its own key there.
        let json = try CatalogProcess.run(window + ["--db", db, "--json"])
        let rows = try CatalogProcess.json(json.stdout) as? [[String: Any]] ?? []
        let row = rows.first { $0["uuid"] as? String == Self.tampered }
        #expect(row?["name"] as? String == "Xxample Signed Profile" && row?["signature"] as? String == "invalid")
        #expect(row?["type"] as? String == "profile")
        #expect(!(try CatalogProcess.run(["profiles", "--db", db, "--format", "csv"]).stdout.contains(Self.mark)))
    }

    @Test func theMarkSurvivesANarrowTerminal() {
        let record = JSONValue.object([
            ("type", .string("profile")), ("uuid", .string(Self.tampered)), ("name", .string("Xxample Signed Profile")),
            ("team_id", .string("TEAM123456")), ("kind", .string("development")), ("bundle_id", .string("com.example.signed")),
            ("effective_expiration_date", .string("2027-01-15T10:00:00Z")), ("expiry_cause", .string("profile")),
            ("days_left", .int(45)), ("signature", .string("invalid")),
            ("path", .string("/Users/ci/Library/MobileDevice/Provisioning Profiles/E09EC7A3.mobileprovision")),
        ])
        for columns in [QuerySupport.profileColumns, ExpiringCommand.columns] {
            for width in [80, 100, 120, 200] {
                let out = TableRenderer(columns: columns, width: width, color: false).render([record])
                #expect(out.split(separator: "\n").last?.contains(Self.mark.dropLast()) == true, "\(width):\n\(out)")
            }
        }
    }
}
