import CatalogTestSupport
import Foundation
import Testing

/// Issue 9 §3 through the built binary: exit codes of runs that partly fail, `--exclude` patterns,
/// `catalog errors` and `catalog runs`, and the summary line.
@Suite(.timeLimit(.minutes(10))) struct IngestCommandTests {
    /// A temp folder with a catalogue path in it, removed afterwards.
    final class Folder: CatalogueFixture {
        private let scratch: Scratch
        var path: String { scratch.path }
        var db: String { path + "/catalog.sqlite" }

        init() throws {
            scratch = try Scratch()
        }

        func copy(_ source: String, to name: String) throws -> String {
            let target = path + "/" + name
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: source, toPath: target)
            return target
        }
    }

    /// `--host` on a SQLite catalogue: the unnamed host and a named one (any case, stored lowercase)
    /// each keep their own rows of the same paths, and a run marks removed only its own host's.
    @Test func hostsOfOneSQLiteCatalogueKeepTheirOwnRows() throws {
        let folder = try Folder()
        let tree = try folder.copy(CatalogProcess.fixtures + "/profiles", to: "profiles")
        #expect(try folder.run(["ingest", tree, "--quiet"]).status == 0)
        #expect(try folder.run(["ingest", tree, "--quiet", "--host", "Mac-B"]).status == 0)
        let runs = try folder.records(["runs"])
        #expect(runs.map { $0["host"] as? String } == ["mac-b", nil], "\(runs)")
        let gone = tree + "/bare-plist.mobileprovision"
        try FileManager.default.removeItem(atPath: gone)
        #expect(try folder.run(["ingest", tree, "--quiet", "--host", "mac-b"]).status == 0)
        let removedOnB = try folder.records(["profiles", "--removed", "--host", "mac-b"])
        #expect(removedOnB.map { $0["uuid"] as? String } == ["46108860-2000-4050-A219-2B0579857204"], "\(gone): \(removedOnB)")
        // The unnamed host still has it: its rows were not touched by mac-b's run.
        #expect(try folder.records(["profiles", "--removed"]).isEmpty)
        #expect(try folder.run(["ingest", tree, "--quiet", "--host", " "]).status == 64)
        // stats lists each host's runs and last successful ingest.
        let stats = try CatalogProcess.json(try folder.run(["stats", "--json"]).stdout) as? [String: Any]
        let hosts = stats?["hosts"] as? [[String: Any]] ?? []
        #expect(hosts.map { $0["host"] as? String } == [nil, "mac-b"], "\(hosts)")
        #expect(hosts.map { $0["runs"] as? Int } == [1, 2] && hosts.allSatisfy { $0["last_status"] as? String == "ok" })
    }

    @Test func aMissingRootExits1AfterIngestingTheOthers() throws {
        let folder = try Folder()
        let good = try folder.copy(CatalogProcess.fixtures + "/profiles", to: "good")
        let missing = folder.path + "/nonexistent"
        let result = try folder.run(["ingest", missing, good])
        #expect(result.status == 1)
        #expect(result.stderr.hasSuffix(
            "error: \(missing): cannot read: No such file or directory; nothing under it was marked removed\n"),
            "\(result.stderr)")
        #expect(result.stderr.contains("checked "))
        #expect(try folder.records(["profiles"]).count > 10)
        let errors = try folder.records(["errors"])
        #expect(errors.map { $0["path"] as? String } == [missing])
        // Issue 52: the missing root makes the run partial (the other root was read).
        #expect(try folder.records(["runs"]).first?["status"] as? String == "partial")
        // --quiet hushes the summary, not the error; the next run meets the root's error again.
        let quiet = try folder.run(["ingest", "--quiet", missing, good])
        #expect(quiet.status == 1)
        #expect(quiet.stderr == "error: \(missing): cannot read: No such file or directory; nothing under it was marked removed\n")
        #expect(try folder.records(["errors"]).map { $0["run_id"] as? Int } == [2])
        // Usage errors keep 64.
        #expect(try folder.run(["ingest", good, "--bogus"]).status == 64)
        let noStandardFolder = try CatalogProcess.run(["ingest", "--db", folder.db], environment: ["HOME": folder.path])
        #expect(noStandardFolder.status == 64)
    }

    @Test func aTruncatedCopyShowsItsErrorInShow() throws {
        let folder = try Folder()
        let a = try folder.copy(CatalogProcess.fixtures + "/profiles/ios-enterprise.mobileprovision", to: "tree/a.mobileprovision")
        let b = try folder.copy(a, to: "tree/b.mobileprovision")
        #expect(try folder.run(["ingest", folder.path + "/tree"]).status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: b))
        try bytes.prefix(300).write(to: URL(fileURLWithPath: b))
        let second = try folder.run(["ingest", folder.path + "/tree"])
        #expect(second.status == 0 && second.stderr.contains("warning: \(b): "))
        let show = try folder.run(["show", "C1764A00-333D-41F4-A0B4-A29DCAD39493", "--format", "table"])
        let line = show.stdout.split(separator: "\n").first { $0.contains(b) } ?? ""
        let message = try folder.records(["errors"]).first { $0["path"] as? String == b }?["message"] as? String
        #expect(message != nil && line.contains(message ?? "?"), "\(show.stdout)")
        let json = try CatalogProcess.json(try folder.run(["show", "C1764A00-333D-41F4-A0B4-A29DCAD39493", "--json"]).stdout)
        let locations = (json as? [String: Any])?["locations"] as? [[String: Any]] ?? []
        #expect(locations.map { $0["error"] is NSNull } == [true, false])
        #expect(try folder.records(["profiles"]).count == 1)
    }

    @Test func excludePatternsWithASlashAreRelativeToTheWalkedRoot() throws {
        let folder = try Folder()
        let tree = try folder.copy(CatalogProcess.fixtures, to: "Fixtures")
        // signatures/ holds profiles whose signatures are invalid on purpose: ingest warns about those.
        let relative = try folder.run(["ingest", tree, "--exclude", "malformed/*", "--exclude", "signatures"])
        #expect(relative.status == 0)
        #expect(relative.stderr.contains("; 0 errors"), "\(relative.stderr)")
        // Only the lenient fixtures' warnings (read, with a note) remain: nothing under malformed/.
        #expect(!relative.stderr.split(separator: "\n").contains { $0.hasPrefix("warning:") && !$0.contains("/lenient/") },
                "\(relative.stderr)")
        let above = try CatalogProcess.run(["ingest", folder.path, "--exclude", "Fixtures/malformed/*",
                                            "--db", folder.path + "/other.sqlite"])
        #expect(above.stderr.contains("; 0 errors"), "\(above.stderr)")
        let bare = try CatalogProcess.run(["ingest", folder.path, "--exclude", "malformed", "--db", folder.path + "/bare.sqlite"])
        #expect(bare.stderr.contains("; 0 errors"), "\(bare.stderr)")
    }

    @Test func errorsListWhatIsInErrorNowAndRunsShowRemovedBuilds() throws {
        let folder = try Folder()
        let bad = try folder.copy(CatalogProcess.fixtures + "/malformed", to: "bad")
        let bundles = try folder.copy(CatalogProcess.fixtures + "/bundles", to: "bundles")
        #expect(try folder.run(["ingest", bad]).status == 0)
        #expect(try folder.run(["ingest", bundles]).status == 0)
        // The second run did not walk `bad`: its files are still listed, with run 1.
        let errors = try folder.records(["errors"])
        #expect(!errors.isEmpty)
        #expect(errors.allSatisfy { ($0["path"] as? String)?.hasPrefix(bad + "/") == true && $0["run_id"] as? Int == 1 })
        #expect(try folder.records(["errors", "--run", "2"]).isEmpty)
        #expect(try folder.records(["errors", "--run", "1"]).count == errors.count)

        try FileManager.default.removeItem(atPath: bundles + "/Example.app")
        let third = try folder.run(["ingest", bundles])
        let runs = try folder.records(["runs"])
        let removed = runs.first?["builds_removed"] as? Int ?? 0
        #expect(removed >= 1)
        #expect(third.stderr.contains("(+0 new, \(removed) removed); 0 errors"), "\(third.stderr)")
        let table = try folder.run(["runs", "--format", "table"])
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.first?.contains("RENEWED") == true)
        #expect(lines.first?.contains("BUILDS REMOVED") == true)
        // The newest run's row, in the BUILDS REMOVED column.
        let header = String(lines.first ?? "")
        let row = String(lines.dropFirst().first ?? "")
        let range = try #require(header.range(of: "BUILDS REMOVED"))
        let cell = row.dropFirst(header.distance(from: header.startIndex, to: range.lowerBound)).prefix { $0 != " " }
        #expect(cell == Substring(String(removed)), "\(table.stdout)")
    }

    @Test func theSummarySaysCheckedAndReadAndRenewalsAgreeWithRuns() throws {
        let folder = try Folder()
        let tree = try folder.copy(CatalogProcess.fixtures + "/profiles", to: "profiles")
        let first = try folder.run(["ingest", tree])
        let count = try FileManager.default.contentsOfDirectory(atPath: tree).count
        #expect(first.stderr.hasPrefix("checked \(count) files in "), "\(first.stderr)")
        #expect(first.stderr.contains("(read \(count), 0 unchanged)"))
        let second = try folder.run(["ingest", tree])
        #expect(second.stderr.contains("(read 0, \(count) unchanged)"), "\(second.stderr)")
        // What the summary says of renewals is what `runs` records.
        for run in try folder.records(["runs"]) {
            #expect(run["profiles_renewed"] as? Int == 0)
        }
        #expect(first.stderr.contains(" 0 renewed"))
    }
}
