import CatalogStore
import CatalogTestSupport
import Foundation
import Testing

/// Issue 52 §1: a nightly ingest whose share vanished or was emptied is recorded as failed (partial
/// when other roots were read), with its reason, in `runs` and `stats`; the staleness alarm counts
/// from the last run that read every root, so the dead share trips it.
@Suite(.timeLimit(.minutes(10))) struct FailedRunTests {
    final class Catalogue: CatalogueFixture {
        let scratch: Scratch
        var db: String { scratch.file("catalog.sqlite") }
        var share: String { scratch.file("share") }
        var local: String { scratch.file("local") }

        init() throws {
            scratch = try Scratch()
            for folder in [share, local] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            try FileManager.default.copyItem(atPath: CatalogProcess.fixtures + "/profiles/ios-adhoc.mobileprovision",
                                             toPath: share + "/ios-adhoc.mobileprovision")
            try FileManager.default.copyItem(atPath: CatalogProcess.fixtures + "/profiles/ios-appstore.mobileprovision",
                                             toPath: local + "/ios-appstore.mobileprovision")
        }

        func runs() throws -> [[String: Any]] { try records(["runs"]) }

        /// Moves every run `days` into the past, as the nights go by.
        func age(days: Int) throws {
            let connection = try Connection(path: db)
            let then = SQLDate.string(from: Date().addingTimeInterval(-Double(days) * 86_400))
            _ = try connection.execute("UPDATE ingest_runs SET started_at = ?, finished_at = ?", [.text(then), .text(then)])
        }
    }

    @Test func aVanishedShareFailsTheRunAndTripsTheAlarm() throws {
        let catalogue = try Catalogue()
        #expect(try catalogue.run(["ingest", catalogue.share, "--quiet", "--strict"]).status == 0)
        try catalogue.age(days: 2)
        try FileManager.default.moveItem(atPath: catalogue.share, toPath: catalogue.scratch.file("moved"))
        let failed = try catalogue.run(["ingest", catalogue.share, "--quiet", "--strict"])
        #expect(failed.status == 1)
        let last = try #require(try catalogue.runs().first)
        #expect(last["status"] as? String == "failed")
        #expect((last["reason"] as? String)?.contains(catalogue.share) == true, "\(last)")
        let stats = try #require(try CatalogProcess.json(try catalogue.run(["stats", "--json"]).stdout) as? [String: Any])
        let lastRun = stats["last_run"] as? [String: Any]
        #expect(lastRun?["status"] as? String == "failed" && lastRun?["reason"] is String)
        // The last run that read its root is two days old: the morning's check trips.
        let alarm = try catalogue.run(["expiring", "--max-age", "1d", "--exit-code", "--json"])
        #expect(alarm.status == 1 && alarm.stderr.contains("stale"), "\(alarm.stderr)")
        let table = try catalogue.run(["runs", "--format", "table"])
        #expect(table.stdout.contains("failed") && table.stdout.contains("REASON"))
        let report = try catalogue.run(["report", "--format", "markdown"])
        #expect(report.stdout.contains("the last ingest (run 2,") && report.stdout.contains("failed: " + catalogue.share),
                "\(report.stdout.prefix(600))")
    }

    @Test func anEmptiedShareBesideAReadRootIsPartial() throws {
        let catalogue = try Catalogue()
        #expect(try catalogue.run(["ingest", catalogue.share, catalogue.local, "--quiet"]).status == 0)
        #expect(try catalogue.runs().first?["status"] as? String == "ok")
        try FileManager.default.removeItem(atPath: catalogue.share + "/ios-adhoc.mobileprovision")
        let partial = try catalogue.run(["ingest", catalogue.share, catalogue.local, "--quiet"])
        #expect(partial.status == 1, "an emptied root is refused: \(partial.stderr)")
        let last = try #require(try catalogue.runs().first)
        #expect(last["status"] as? String == "partial")
        #expect((last["reason"] as? String)?.contains("found no files") == true, "\(last)")
        // The staleness alarm counts from the last run that read every root: the first one.
        try catalogue.age(days: 2)
        #expect(try catalogue.run(["profiles", "--max-age", "1d", "--json"]).status == 1)
    }
}
