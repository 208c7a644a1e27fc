import CatalogTestSupport
import Foundation
import Testing

/// The `launchd` agent in docs/ingest.md for macOS is a valid property list whose program, run as
/// launchd runs it (no shell, no terminal, the user's HOME), ingests the default folders. launchd
/// itself is not here; its contract for this file (Label, ProgramArguments, StartCalendarInterval)
/// is checked as data.
@Suite(.timeLimit(.minutes(10))) struct LaunchdAgentTests {
    static func documentedAgent() throws -> [String: Any] {
        let readme = try String(contentsOfFile: TestPaths.packageRoot + "/docs/ingest.md", encoding: .utf8)
        guard let start = readme.range(of: "```xml\n"),
              let end = readme.range(of: "```", range: start.upperBound..<readme.endIndex) else {
            Issue.record("docs/ingest.md has no ```xml block")
            return [:]
        }
        let data = Data(readme[start.upperBound..<end.lowerBound].utf8)
        return try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] ?? [:]
    }

    @Test func theDocumentedAgentIsWellFormed() throws {
        let agent = try Self.documentedAgent()
        #expect(agent["Label"] as? String == "com.example.catalog.ingest")
        let arguments = agent["ProgramArguments"] as? [String] ?? []
        #expect(arguments.first == "/usr/local/bin/catalog")
        #expect(Array(arguments.dropFirst().prefix(1)) == ["ingest"])
        let interval = agent["StartCalendarInterval"] as? [String: Any] ?? [:]
        #expect((interval["Hour"] as? Int).map { (0..<24).contains($0) } == true)
        #expect((interval["Minute"] as? Int).map { (0..<60).contains($0) } == true)
        // launchd does not expand ~ or variables in paths.
        for case let path as String in [agent["StandardErrorPath"], agent["StandardOutPath"]] {
            #expect(path.hasPrefix("/") && !path.contains("~") && !path.contains("$"), "\(path)")
        }
    }

    @Test func theDocumentedAgentIngestsTheDefaultFolders() throws {
        let arguments = try Self.documentedAgent()["ProgramArguments"] as? [String] ?? []
        try #require(arguments.count >= 2)
        let scratch = try Scratch()
        let home = scratch.path
        let profiles = home + "/Library/Developer/Xcode/UserData/Provisioning Profiles"
        try FileManager.default.createDirectory(atPath: profiles, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CatalogProcess.fixtures + "/profiles/ios-development.mobileprovision",
                                         toPath: profiles + "/a.mobileprovision")
        // The Xcode 16 workaround: the old folder a symlink to the new one. Read once.
        try FileManager.default.createDirectory(atPath: home + "/Library/MobileDevice", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: home + "/Library/MobileDevice/Provisioning Profiles",
                                                   withDestinationPath: profiles)
        let db = home + "/catalog.sqlite"
        // What launchd gives an agent: HOME, a minimal PATH, no terminal. CATALOG_DB stands in for
        // the platform's default catalogue folder so the test writes nowhere else.
        let (status, printed) = try CatalogProcess.runAsScheduled(
            CatalogProcess.executable, Array(arguments.dropFirst()),
            environment: ["HOME": home, "PATH": "/usr/bin:/bin", "CATALOG_DB": db])
        #expect(status == 0, "\(printed)")
        #expect(printed.isEmpty, "\(printed)")
        let shown = try CatalogProcess.run(["show", "FF765057-911B-4E46-A94B-D0EC08C7F27F", "--json", "--db", db])
        #expect(shown.status == 0, "\(shown.stderr)")
        let detail = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any] ?? [:]
        let locations = (detail["locations"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        // One location, under the folder's own spelling: the symlinked one was not walked again.
        #expect(locations == [profiles + "/a.mobileprovision"])
    }
}
