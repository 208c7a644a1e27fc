import Foundation
import Testing
@testable import CatalogIngest
@testable import CatalogStore
import CatalogTestSupport

/// Issue "catalogue + ingester": an ingest of a copy of `Fixtures/` catalogues everything
/// `Fixtures/expected.json` lists, links nested bundles to their app and records the bad fixtures.
@Suite(.timeLimit(.minutes(10))) struct FixtureIngestTests {
    @Test func everyExpectedProfileAndBuildIsCatalogued() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures()
        let db = scratch.file("catalog.sqlite")
        let report = try ingest([tree], db: db)
        #expect(report.filesScanned > 0)

        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        let expected = ExpectedCatalogue(expected: try IngestPaths.expected(at: IngestPaths.fixtures + "/expected.json"),
                                         prefix: "Fixtures/", root: tree)
        #expect(expected.profileUUIDs().count > 20)
        #expect(expected.builds().count > 5)
        try expected.check(connection)
    }

    /// Which file decodes a shared profile first depends on thread timing and batch boundaries; the
    /// app's row (and so its extension's parent) must not.
    @Test(arguments: 0..<3)
    func nestedExtensionsPointAtTheirApp(round: Int) throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures()
        let db = scratch.file("catalog.sqlite")
        try ingest([tree], db: db, batchSize: [256, 8, 64][round % 3])
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        let rows = try connection.query("""
            SELECT b.path AS path, p.path AS parent FROM builds b JOIN builds p ON p.id = b.parent_build_id
            ORDER BY b.path
            """)
        // bundles/ (codesign/'s nested builds are checked against expected.json with the others).
        let nested = rows.map { [$0.string("path") ?? "", $0.string("parent") ?? ""] }
            .filter { $0[0].hasPrefix(tree + "/bundles/") }
        let app = tree + "/bundles/Example.app", mac = tree + "/bundles/ExampleMacHost.app"
        #expect(nested == [
            [app + "/PlugIns/Widget.appex", app],
            // macOS only: ExtensionKit extensions and system extensions (issue 17).
            [mac + "/Contents/Extensions/Share.appex", mac],
            [mac + "/Contents/Library/SystemExtensions/com.example.machost.filter.systemextension", mac],
        ])
        // Each with its own embedded profile, recorded inside it.
        let locations = try connection.strings("""
            SELECT path FROM profile_locations WHERE container_path LIKE ? AND container_kind = 'app' ORDER BY path
            """, [.text(mac + "%")])
        #expect(locations == [
            mac + "/Contents/Extensions/Share.appex/Contents/embedded.provisionprofile",
            mac + "/Contents/Library/SystemExtensions/com.example.machost.filter.systemextension/Contents/embedded.provisionprofile",
            mac + "/Contents/embedded.provisionprofile",
        ])
    }

    @Test func badFixturesAreRecordedAndTheRunGoesOn() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures()
        let db = scratch.file("catalog.sqlite")
        let report = try ingest([tree], db: db)
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        let errorPaths = Set(try connection.strings("SELECT path FROM ingest_errors WHERE run_id = ?",
                                                    [.integer(report.runID)]))
        let malformed = try IngestPaths.expected(at: IngestPaths.fixtures + "/expected.json")["malformed"]
            as? [[String: Any]] ?? []
        #expect(malformed.count >= 8)
        for entry in malformed {
            let relative = entry["path"] as? String ?? ""
            let path = tree + "/" + relative.dropFirst("Fixtures/".count)
            #expect(errorPaths.contains(path), "\(relative) is not in ingest_errors")
        }
        // The good files around them were still catalogued, and the run finished.
        #expect(try connection.count("SELECT count(*) AS n FROM profiles") > 20)
        #expect(try connection.strings("SELECT status FROM ingest_runs WHERE id = ?", [.integer(report.runID)]) == ["ok"])
    }

    @Test(.enabled(if: CatalogBinary.isAvailable, "the catalog binary was not found (run `swift build`, or set CATALOG_BIN)"))
    func theCLIExitsZeroDespiteBadFiles() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures()
        let db = scratch.file("catalog.sqlite")
        let result = try CatalogBinary.run(["ingest", tree, "--db", db])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: \(tree)/malformed/garbage.mobileprovision"))
        #expect(result.stderr.contains("checked "))
        let strict = try CatalogBinary.run(["ingest", tree, "--db", db, "--full", "--strict", "--quiet"])
        #expect(strict.status == 1)
    }
}
