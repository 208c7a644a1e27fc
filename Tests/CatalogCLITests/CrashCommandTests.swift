import CatalogTestSupport
import Foundation
import Testing

/// Issue 53 §2: `catalog crash` answers which catalogued build and dSYM each crash report of
/// `Fixtures/crash` came from, against a catalogue of `Fixtures/codesign`.
@Suite(.timeLimit(.minutes(10))) struct CrashCommandTests {
    final class Catalogue: CatalogueFixture {
        let scratch: Scratch
        let tree: String
        var db: String { scratch.file("catalog.sqlite") }

        init() throws {
            scratch = try Scratch()
            tree = try scratch.copyFixtures("codesign", to: "codesign")
            #expect(try CatalogProcess.run(["ingest", tree, "--db", db, "--quiet"]).status == 0)
        }
    }

    static let crash = CatalogProcess.fixtures + "/crash/"

    @Test func anIPSReportFindsItsBuildDSYMAndImages() throws {
        let catalogue = try Catalogue()
        let result = try catalogue.run(["crash", Self.crash + "signed.ips", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let record = try #require((try CatalogProcess.json(result.stdout) as? [[String: Any]])?.first)
        #expect(record["format"] as? String == "ips" && record["process"] as? String == "Signed")
        #expect(record["bundle_id"] as? String == "com.example.app" && record["short_version"] as? String == "9.0"
                && record["build"] as? String == "900")
        #expect(record["incident_id"] as? String == "7D3C1A2B-1111-4222-8333-444455556666" && record["crashed_at"] is String)
        let main = try #require(record["main_image"] as? [String: Any])
        let builds = main["builds"] as? [[String: Any]] ?? []
        let paths = Set(builds.compactMap { $0["path"] as? String })
        #expect(paths.isSuperset(of: [catalogue.tree + "/Signed.app", catalogue.tree + "/Signed.ipa", catalogue.tree + "/Signed.xcarchive"]),
                "\(paths)")
        #expect(builds.allSatisfy { $0["bundle_id"] as? String == "com.example.app" && $0["first_seen"] is String })
        let dsyms = main["dsyms"] as? [[String: Any]] ?? []
        #expect(dsyms.contains { ($0["path"] as? String)?.hasSuffix("Signed.xcarchive/dSYMs/Signed.app.dSYM/Contents/Resources/DWARF/Signed") == true })
        let images = record["images"] as? [[String: Any]] ?? []
        #expect(images.map { $0["name"] as? String } == ["Widget"])
        #expect((images.first?["builds"] as? [Any])?.isEmpty == false, "the widget is found too")
        #expect(record["system_image_count"] as? Int == 1)
        #expect((record["warnings"] as? [Any])?.isEmpty == true)
    }

    @Test func eachFormatFindsTheSameBuild() throws {
        let catalogue = try Catalogue()
        for name in ["signed-ios14.crash", "signed-ios16.crash", "header-then-text.ips", "trailer.ips", "signed-mac.crash"] {
            let result = try catalogue.run(["crash", Self.crash + name, "--json"])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            let record = try #require((try CatalogProcess.json(result.stdout) as? [[String: Any]])?.first, "\(name)")
            let builds = (record["main_image"] as? [String: Any])?["builds"] as? [[String: Any]] ?? []
            #expect(!builds.isEmpty && builds.allSatisfy { $0["formatted_version"] as? String == "9.0 (900)" }, "\(name)")
        }
    }

    @Test func aRebuildIsNotFoundAndSaysSo() throws {
        let catalogue = try Catalogue()
        let result = try catalogue.run(["crash", Self.crash + "rebuilt.ips", "--json"])
        #expect(result.status == 1)
        let record = try #require((try CatalogProcess.json(result.stdout) as? [[String: Any]])?.first)
        #expect(((record["main_image"] as? [String: Any])?["builds"] as? [Any])?.isEmpty == true)
        let warnings = record["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.hasPrefix("rebuilt? the catalogued 9.0 (900) has UUID") }, "\(warnings)")
    }

    @Test func aFolderAndStdinAndBrokenReports() throws {
        let catalogue = try Catalogue()
        let folder = try catalogue.run(["crash", CatalogProcess.fixtures + "/crash", "--json"])
        #expect(folder.status == 1, "broken and rebuilt reports are there")
        let records = try CatalogProcess.json(folder.stdout) as? [[String: Any]] ?? []
        #expect(records.count == 8, "every readable report answered, the Organizer's included")
        for broken in ["truncated.ips", "truncated.crash", "deep.ips", "bad-image-line.crash"] {
            #expect(folder.stderr.contains("malformed/\(broken): line "), "\(broken): \(folder.stderr)")
        }
        // A report piped in (`-`), as from `pbpaste | catalog crash -`.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" crash - --db \"$1\" --json < \"$2\"", CatalogProcess.executable, catalogue.db,
                             Self.crash + "signed.ips"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let piped = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && piped.contains("\"path\": \"-\""), "\(piped)")
        #expect(try catalogue.run(["crash"]).status == 64)
    }

    /// Issue 53 §3: `builds --uuid` takes the spelling a `.crash` file's Binary Images use.
    @Test func buildsTakesTheBracketedUUID() throws {
        let catalogue = try Catalogue()
        let text = try String(contentsOfFile: Self.crash + "signed-ios16.crash", encoding: .utf8)
        let bracketed = try #require(text.split(separator: "\n").first { $0.contains(" Signed arm64") }
            .flatMap { line in line.firstIndex(of: "<").map { String(line[$0...].prefix(34)) } })
        let rows = try catalogue.records(["builds", "--uuid", bracketed])
        #expect(!rows.isEmpty && rows.allSatisfy { $0["bundle_id"] as? String == "com.example.app" }, "\(bracketed)")
    }
}
