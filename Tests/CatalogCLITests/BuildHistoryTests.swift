import CatalogTestSupport
import Foundation
import Testing

/// A build is one build wherever it was seen: `versions` counts an archive and the `.ipa` exported
/// from it once and takes the launch limit from the copies that embed a profile; `builds --profile`
/// takes a UUID prefix; `show` takes a build and shows the profile it embeds.
@Suite(.timeLimit(.minutes(10))) struct BuildHistoryTests {
    typealias Catalogue = QueryCommandTests.Catalogue

    static let adhoc = "080B4AFF-C595-4955-AEED-8B8810E698FC"

    /// A folder holding `Archives/Example.xcarchive` (the fixture archive rewritten as 2.0 (50) of
    /// `team`, without an embedded profile) and `Exports/Example.ipa` (2.0 (50), the ad-hoc profile),
    /// plus `extra` archives of other teams.
    final class Tree {
        private let scratch: Scratch
        var folder: String { scratch.path }

        init(otherTeams: [String] = []) throws {
            scratch = try Scratch()
            let fm = FileManager.default
            try fm.createDirectory(atPath: folder + "/Exports", withIntermediateDirectories: true)
            try fm.copyItem(atPath: CatalogProcess.fixtures + "/ipa/Example.ipa", toPath: folder + "/Exports/Example.ipa")
            try archive(at: folder + "/Archives/Example.xcarchive", team: "TEAM123456")
            for (index, team) in otherTeams.enumerated() { try archive(at: folder + "/Other\(index)/Example.xcarchive", team: team) }
        }

        private func archive(at path: String, team: String) throws {
            let fm = FileManager.default
            try fm.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try fm.copyItem(atPath: CatalogProcess.fixtures + "/bundles/Example.xcarchive", toPath: path)
            try fm.removeItem(atPath: path + "/Products/Applications/Example.app/embedded.mobileprovision")
            let plist = path + "/Info.plist"
            let text = try String(contentsOfFile: plist, encoding: .utf8)
                .replacingOccurrences(of: "<string>1.3</string>", with: "<string>2.0</string>")
                .replacingOccurrences(of: "<string>40</string>", with: "<string>50</string>")
                .replacingOccurrences(of: "<string>TEAM123456</string>", with: "<string>\(team)</string>")
            try text.write(toFile: plist, atomically: true, encoding: .utf8)
        }
    }

    // MARK: versions

    @Test func anArchiveAndTheIPAExportedFromItAreOneBuild() throws {
        let tree = try Tree()
        let catalogue = try Catalogue(ingesting: [tree.folder])
        let builds = try catalogue.records(["builds", "com.example.app"])
        #expect(builds.map { $0["source_kind"] as? String } == ["xcarchive", "ipa"], "two locations, the archive first")
        let versions = try catalogue.records(["versions", "com.example.app"])
        #expect(versions.count == 1)
        let version = try #require(versions.first)
        #expect(version["build_numbers"] as? [String] == ["50"])
        #expect(version["build_count"] as? Int == 1)
        #expect(version["sources"] as? [String] == ["ipa", "xcarchive"])
        // The archive embeds no profile: the limit is the IPA's ad-hoc profile's.
        #expect(version["launches_until"] as? String == "2026-12-01T10:00:00Z")
        #expect(version["profile_kind"] as? String == "ad-hoc")
        let table = try catalogue.run(["versions", "com.example.app", "--format", "table"])
        #expect(table.stdout.contains("2026-12-01"), "\(table.stdout)")
    }

    @Test func anotherTeamsBuildOfTheSameNumberIsAnotherBuild() throws {
        let tree = try Tree(otherTeams: ["OTHER12345"])
        let catalogue = try Catalogue(ingesting: [tree.folder])
        let version = try #require(try catalogue.records(["versions", "com.example.app"]).first)
        #expect(version["build_numbers"] as? [String] == ["50"])
        #expect(version["build_count"] as? Int == 2)
    }

    // MARK: builds --profile

    @Test func buildsTakeAProfileAsShowTakesIt() throws {
        let catalogue = try Catalogue()
        let full = try catalogue.records(["builds", "--profile", Self.adhoc])
        #expect(Set(full.compactMap { $0["source_kind"] as? String }) == ["app", "ipa"])
        let paths = Set(full.compactMap { $0["path"] as? String })
        for typed in ["080B4AFF", "080b4aff", "080B4AFF-C595", "080B4AFFC595", Self.adhoc.lowercased(), "Example App AdHoc"] {
            let result = try catalogue.run(["builds", "--profile", typed, "--json"])
            #expect(result.status == 0, "\(typed): \(result.stderr)")
            let records = try CatalogProcess.json(result.stdout) as? [[String: Any]] ?? []
            #expect(Set(records.compactMap { $0["path"] as? String }) == paths, "\(typed)")
        }
        let unknown = try catalogue.run(["builds", "--profile", "FFFFFFFF0"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no profile 'FFFFFFFF0'"), "\(unknown.stderr)")
        // A full UUID the catalogue does not hold embeds nothing, as before.
        let absent = try catalogue.run(["builds", "--profile", "00000000-0000-4000-8000-000000000000", "--json"])
        #expect(absent.status == 0 && absent.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func anAmbiguousPrefixListsTheCandidates() throws {
        let scratch = try Scratch()
        let folder = scratch.path
        try FileManager.default.copyItem(atPath: CatalogProcess.fixtures + "/profiles/ios-adhoc.mobileprovision",
                                         toPath: folder + "/adhoc.mobileprovision")
        let twin = "080B4AFF-0000-4000-8000-000000000000"
        try String(contentsOfFile: CatalogProcess.fixtures + "/profiles/bare-plist.mobileprovision", encoding: .utf8)
            .replacingOccurrences(of: "46108860-2000-4050-A219-2B0579857204", with: twin)
            .write(toFile: folder + "/twin.mobileprovision", atomically: true, encoding: .utf8)
        let catalogue = try Catalogue(ingesting: [folder])
        for command in [["builds", "--profile", "080b4aff"], ["show", "080b4aff"]] {
            let result = try catalogue.run(command)
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains("is the start of 2 profile UUIDs"), "\(command): \(result.stderr)")
            #expect(result.stderr.contains(Self.adhoc) && result.stderr.contains(twin), "\(result.stderr)")
        }
        let detail = try CatalogProcess.json(try catalogue.run(["show", "080B4AFF-C", "--json"]).stdout) as? [String: Any]
        #expect(detail?["uuid"] as? String == Self.adhoc)
    }

    // MARK: show BUILD

    @Test(arguments: ["/ipa/Example.ipa", "/bundles/Example.app", "/bundles/Example.xcarchive", "/bundles/Example.app/"])
    func showGivenABuildShowsTheProfileItEmbeds(_ build: String) throws {
        let catalogue = try Catalogue()
        let expected = build.contains("xcarchive") ? "930A1813-B3BA-4B98-AE76-B3B24E907A89" : Self.adhoc
        // Catalogued: found among the builds.
        let known = try catalogue.run(["show", CatalogProcess.fixtures + build, "--json"])
        #expect(known.status == 0, "\(known.stderr)")
        #expect((try? CatalogProcess.json(known.stdout) as? [String: Any])??["uuid"] as? String == expected)
        // Not catalogued where it is now: decoded.
        let scratch = try Scratch()
        let folder = scratch.path
        let source = CatalogProcess.fixtures + (build.hasSuffix("/") ? String(build.dropLast()) : build)
        let copy = folder + "/" + (source as NSString).lastPathComponent
        try FileManager.default.copyItem(atPath: source, toPath: copy)
        let decoded = try catalogue.run(["show", copy + (build.hasSuffix("/") ? "/" : ""), "--json"])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        #expect((try? CatalogProcess.json(decoded.stdout) as? [String: Any])??["uuid"] as? String == expected)
    }

    @Test func showGivenABuildWithoutAProfileSaysSo() throws {
        let tree = try Tree()
        let catalogue = try Catalogue(ingesting: [tree.folder])
        let archive = tree.folder + "/Archives/Example.xcarchive"
        let known = try catalogue.run(["show", archive])
        #expect(known.status == 1)
        #expect(known.stderr.contains("embeds no provisioning profile"), "\(known.stderr)")
        try FileManager.default.moveItem(atPath: archive, toPath: tree.folder + "/Moved.xcarchive")
        let decoded = try catalogue.run(["show", tree.folder + "/Moved.xcarchive"])
        #expect(decoded.status == 1)
        #expect(decoded.stderr.contains("embeds no provisioning profile"), "\(decoded.stderr)")
    }

    @Test func theMainHelpSaysShowTakesANameToo() throws {
        let help = try CatalogProcess.run(["--help"])
        // The row and its continuation lines (help wraps at 80 columns).
        let lines = help.stdout.split(separator: "\n")
        let start = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("show ") })
        let row = ([lines[start]] + lines[(start + 1)...].prefix { $0.hasPrefix("   ") }).joined(separator: " ")
        #expect(row.contains("name"), "\(help.stdout)")
    }
}
