import CatalogTestSupport
import Foundation
import Testing

/// A nightly run does not pass silently on an empty or unmounted root: a PATH that held catalogued
/// files and yields none is refused (exit 1, nothing marked removed) unless `--allow-empty`; one that
/// never held any is a warning.
@Suite(.timeLimit(.minutes(10))) struct EmptyRootTests {
    typealias Folder = IngestCommandTests.Folder

    /// Empties `path` (an unmounted share is an empty folder), keeping the folder itself.
    static func empty(_ path: String) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: path) {
            try FileManager.default.removeItem(atPath: path + "/" + name)
        }
    }

    @Test func aRootThatHeldFilesAndYieldsNoneIsRefused() throws {
        let folder = try Folder()
        let share = try folder.copy(CatalogProcess.fixtures + "/renewals", to: "share")
        _ = try folder.copy(CatalogProcess.fixtures + "/ipa/Example.ipa", to: "share/Example.ipa")
        let other = try folder.copy(CatalogProcess.fixtures + "/profiles/ios-development.mobileprovision", to: "other/dev.mobileprovision")
        #expect(try folder.run(["ingest", share, "--quiet"]).status == 0)
        let profiles = try folder.records(["profiles"]).count
        let builds = try folder.records(["builds"]).count
        #expect(profiles > 1 && builds > 0)
        let locations = try FileManager.default.contentsOfDirectory(atPath: share).filter { $0.hasSuffix("provision") }.count
        try Self.empty(share)

        let refused = try folder.run(["ingest", share, (other as NSString).deletingLastPathComponent])
        #expect(refused.status == 1)
        // The IPA is a build (counted once with the extension and watch app it holds), and the two
        // profiles it embeds (the app's, the extension's) two more locations.
        #expect(refused.stderr.hasSuffix("error: \(share): found no files, but the catalogue holds \(locations + 2) profile "
                                         + "locations and 1 build under it; nothing under it was marked removed (is it "
                                         + "unmounted? if it was emptied on purpose, run with --allow-empty)\n"), "\(refused.stderr)")
        #expect(refused.stderr.contains("checked 1 file "), "the other PATH is ingested: \(refused.stderr)")
        #expect(try folder.records(["profiles"]).count == profiles + 1)
        #expect(try folder.records(["profiles", "--removed"]).isEmpty)
        #expect(try folder.records(["builds"]).count == builds)
        #expect(try folder.records(["errors"]).map { $0["path"] as? String } == [share])
        // --quiet keeps the error; a cron mail says why.
        let quiet = try folder.run(["ingest", share, "--quiet"])
        #expect(quiet.status == 1 && quiet.stderr.hasPrefix("error: \(share): found no files"), "\(quiet.stderr)")

        // Emptied on purpose: --allow-empty marks what it held removed.
        let allowed = try folder.run(["ingest", share, "--allow-empty"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(!allowed.stderr.contains("warning:") && !allowed.stderr.contains("error:"), "\(allowed.stderr)")
        #expect(try folder.records(["builds"]).isEmpty)
        #expect(try folder.records(["profiles", "--removed"]).count == profiles)
        #expect(try folder.records(["errors"]).isEmpty)
        // It holds nothing present now: the next empty run is only a warning.
        let after = try folder.run(["ingest", share])
        #expect(after.status == 0)
        #expect(after.stderr.contains("warning: \(share): found no profiles or builds\n"), "\(after.stderr)")
    }

    @Test func aRootWithoutHistoryThatYieldsNothingIsAWarning() throws {
        let folder = try Folder()
        let empty = folder.path + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let first = try folder.run(["ingest", empty, "--quiet"])
        #expect(first.status == 0)
        #expect(first.stderr == "warning: \(empty): found no profiles or builds\n")
        // Beside a root that yields files, into a catalogue that holds some.
        let tree = try folder.copy(CatalogProcess.fixtures + "/profiles", to: "tree")
        let second = try folder.run(["ingest", tree, empty, "--quiet"])
        #expect(second.status == 0)
        #expect(second.stderr == "warning: \(empty): found no profiles or builds\n")
        let third = try folder.run(["ingest", tree, empty, "--quiet"])
        #expect(third.status == 0 && third.stderr == "warning: \(empty): found no profiles or builds\n")
    }

    @Test func aRootThatYieldsSomeFilesIsWalkedAsUsual() throws {
        let folder = try Folder()
        let tree = try folder.copy(CatalogProcess.fixtures + "/renewals", to: "tree")
        #expect(try folder.run(["ingest", tree, "--quiet"]).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: tree).sorted()
        for name in names.dropFirst() { try FileManager.default.removeItem(atPath: tree + "/" + name) }
        let result = try folder.run(["ingest", tree, "--quiet"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(try folder.records(["profiles"]).count == 1)
        #expect(try folder.records(["profiles", "--removed"]).count == names.count - 1)
    }

    /// With no PATH the standard Xcode folders that exist are read; one of them empty is normal (no
    /// archives yet, the folder an older Xcode used), all of them empty is worth a warning, and one
    /// emptied after holding files is refused as a given PATH would be.
    @Test func theStandardFoldersWarnOnlyWhenAllAreEmpty() throws {
        let folder = try Folder()
        let home = folder.path + "/home"
        let old = home + "/Library/MobileDevice/Provisioning Profiles"
        let new = home + "/Library/Developer/Xcode/UserData/Provisioning Profiles"
        let archives = home + "/Library/Developer/Xcode/Archives"
        for path in [old, new, archives] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        func ingest(_ arguments: [String] = []) throws -> CatalogProcess.Result {
            try CatalogProcess.run(["ingest", "--quiet", "--db", folder.db] + arguments, environment: ["HOME": home])
        }
        let nothing = try ingest()
        #expect(nothing.status == 0)
        for path in [old, new, archives] { #expect(nothing.stderr.contains("warning: \(path): found no profiles or builds\n")) }

        try FileManager.default.copyItem(atPath: CatalogProcess.fixtures + "/profiles/ios-development.mobileprovision",
                                         toPath: new + "/dev.mobileprovision")
        let some = try ingest()
        #expect(some.status == 0 && some.stderr.isEmpty, "\(some.stderr)")

        try Self.empty(new)
        let emptied = try ingest()
        #expect(emptied.status == 1)
        #expect(emptied.stderr.contains("error: \(new): found no files, but the catalogue holds 1 profile location under it"),
                "\(emptied.stderr)")
        #expect(try folder.records(["profiles"]).count == 1)
        #expect(try ingest(["--allow-empty"]).status == 0)
        #expect(try folder.records(["profiles"]).isEmpty)
    }
}
