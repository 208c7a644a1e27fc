import CatalogCore
import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogIngest
@testable import CatalogStore

/// `builds --uuid`: the builds holding a binary or dSYM of a Mach-O UUID, as a crash report names it,
/// on SQLite (PostgreSQLQueriesTests compares the same filter on both engines).
@Suite struct BuildsByUUIDTests {
    /// `Fixtures/codesign`'s app executable (in Signed.app, .ipa and .xcarchive, with the archive's
    /// dSYM) and its framework's, as `Fixtures/scripts/make_codesign.py` seeds them.
    static let mainUUID = "22F2EF0F-3CB2-B91A-AD73-2F5B5124AF60"
    static let frameworkUUID = "2BE9C44C-F0E9-13AB-5CD5-5701AA286A62"

    @Test func theBuildsOfAUUIDWithTheBinaryAndTheArchivesDSYM() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("codesign", to: "codesign")
        let db = scratch.file("catalog.sqlite")
        try ingest([tree], db: db)
        let queries = CatalogQueries(try Connection.openCatalogue(path: db, readOnly: true))
        var filter = CatalogQueries.BuildFilter()
        filter.binaryUUID = Self.mainUUID
        let builds = try queries.builds(filter)
        #expect(Set(builds.map(\.path)) == Set(["Signed.app", "Signed.ipa", "Signed.xcarchive"].map { tree + "/" + $0 }))
        for build in builds {
            let match = try #require(build.binaryMatch)
            #expect(match.uuid == Self.mainUUID && match.arch == "arm64" && match.role == "main")
            #expect(build.bundleID == "com.example.app" && build.shortVersion == "9.0" && build.build == "900")
            switch build.sourceKind {
            case .xcarchive:
                #expect(match.executablePath == "Products/Applications/Signed.app/Signed")
                #expect(match.dsymPath == "dSYMs/Signed.app.dSYM/Contents/Resources/DWARF/Signed")
            case .ipa: #expect(match.executablePath == "Payload/Signed.app/Signed" && match.dsymPath == nil)
            default: #expect(match.executablePath == "Signed" && match.dsymPath == nil)
            }
        }
        filter.binaryUUID = "00000000-0000-0000-0000-000000000000"
        #expect(try queries.builds(filter).isEmpty)
        // Without the filter, no match is attached.
        #expect(try queries.builds(CatalogQueries.BuildFilter()).allSatisfy { $0.binaryMatch == nil })
    }

    @Test(.timeLimit(.minutes(10))) func theCommandTakesAnyCaseWithOrWithoutDashes() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("codesign", to: "codesign")
        let db = scratch.file("catalog.sqlite")
        try ingest([tree], db: db)
        let typed = Self.frameworkUUID.lowercased().replacingOccurrences(of: "-", with: "")
        let result = try CatalogProcess.run(["builds", "--uuid", typed, "--db", db, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try CatalogProcess.json(result.stdout) as? [[String: Any]] ?? []
        #expect(rows.count >= 3)
        #expect(rows.allSatisfy { $0["binary_uuid"] as? String == Self.frameworkUUID && $0["binary_role"] as? String == "framework" })
        let archive = try #require(rows.first { $0["source_kind"] as? String == "xcarchive" })
        #expect(archive["dsym_path"] as? String == "dSYMs/ExampleKit.framework.dSYM/Contents/Resources/DWARF/ExampleKit")

        let csv = try CatalogProcess.run(["builds", "--uuid", Self.frameworkUUID, "--db", db, "--format", "csv"])
        #expect(csv.stdout.hasPrefix("type,") && csv.stdout.contains(",binary_uuid,binary_arch,binary_path,binary_role,dsym_path\r\n"))
        let table = try CatalogProcess.run(["builds", "--uuid", Self.frameworkUUID, "--db", db, "--format", "table"])
        #expect(table.stdout.contains("DSYM") && table.stdout.contains("ExampleKit.framework.dSYM"))
        // Plain `builds` keeps its columns.
        let plain = try CatalogProcess.run(["builds", "--db", db, "--format", "table"])
        #expect(!plain.stdout.contains("DSYM"))

        let usage = try CatalogProcess.run(["builds", "--uuid", "not-a-uuid", "--db", db])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("--uuid"))
    }
}
