import CatalogTestSupport
import Foundation
import Testing

/// A build is one build wherever it was seen: `versions` counts an archive and the `.ipa` exported
/// from it once and takes the launch limit from the copies that embed a profile; `builds --profile`
/// takes a UUID prefix; `show` takes a build and shows the profile it embeds.
@Suite struct BuildHistoryTests {
    typealias Catalogue = QueryCommandTests.Catalogue

    static let adhoc = "080B4AFF-C595-4955-AEED-8B8810E698FC"

    /// A folder holding `Archives/Example.xcarchive` (the fixture archive rewritten as 2.0 (50) of
    /// `team`, without an embedded profile) and `Exports/Example.ipa` (2.0 (50), the ad-hoc profile),
    /// plus `extra` archives of other teams.
    final class Tree {
        let folder = TestPaths.temporary + "build-history-" + UUID().uuidString

        init(otherTeams: [String] = []) throws {
            let fm = FileManager.default
            try fm.createDirectory(atPath: folder + "/Exports", withIntermediateDirectories: true)
            try fm.copyItem(atPath: CatalogProcess.fixtures + "/ipa/Example.ipa", toPath: folder + "/Exports/Example.ipa")
            try archive(at: folder + "/Archives/Example.xcarchive", team: "TEAM123456")
            for (index, team) in otherTeams.enumerated() { try archive(at: folder + "/Other\(index)/Example.xcarchive", team: team) }
        }

        deinit { try? FileManager.default.removeItem(atPath: folder) }

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
}
