import CatalogTestSupport
import Foundation
import Testing

/// Issue 52 §9: `errors` shows what is still wrong. A mistyped PATH that never held anything is
/// history once a later run of the host succeeds; a share that vanished stays an error; `--all`
/// lists the history.
@Suite(.timeLimit(.minutes(10))) struct ErrorsHistoryTests {
    @Test func aMistypedPathIsHistoryAVanishedShareIsNot() throws {
        let scratch = try Scratch()
        let db = scratch.file("catalog.sqlite")
        let good = try scratch.copyFixtures("profiles/ios-adhoc.mobileprovision", to: "good/ios-adhoc.mobileprovision")
        let goodFolder = (good as NSString).deletingLastPathComponent
        let other = try scratch.copyFixtures("profiles/ios-appstore.mobileprovision", to: "other/ios-appstore.mobileprovision")
        func errors(_ extra: [String] = []) throws -> [String] {
            let result = try CatalogProcess.run(["errors", "--db", db, "--json"] + extra)
            return (try CatalogProcess.json(result.stdout) as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        }
        let typo = scratch.file("gdoo")
        #expect(try CatalogProcess.run(["ingest", typo, "--db", db, "--quiet"]).status == 1)
        #expect(try errors() == [typo])
        #expect(try CatalogProcess.run(["ingest", goodFolder, "--db", db, "--quiet"]).status == 0)
        #expect(try errors().isEmpty, "the mistyped PATH is no longer something wrong")
        #expect(try errors(["--all"]) == [typo])
        // The share that held profiles goes away: an error that stays, whatever else succeeds.
        try FileManager.default.moveItem(atPath: goodFolder, toPath: scratch.file("moved"))
        #expect(try CatalogProcess.run(["ingest", goodFolder, "--db", db, "--quiet"]).status == 1)
        #expect(try CatalogProcess.run(["ingest", (other as NSString).deletingLastPathComponent, "--db", db, "--quiet"]).status == 0)
        #expect(try errors() == [goodFolder])
        #expect(Set(try errors(["--all"])) == [typo, goodFolder])
        #expect(try CatalogProcess.run(["errors", "--db", db, "--all", "--run", "1"]).status == 64)
    }
}
