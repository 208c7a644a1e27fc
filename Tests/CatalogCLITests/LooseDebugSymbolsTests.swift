import CatalogTestSupport
import Foundation
import Testing

/// Issue 53 §4: dSYMs where people keep them — a `.dSYM` folder anywhere under a root, a zipped dSYM,
/// App Store Connect's zip of many — are catalogued slice by slice (read in place, never extracted),
/// found by `builds --uuid` and `crash`, re-read only when they change, marked removed when gone.
@Suite(.timeLimit(.minutes(5))) struct LooseDebugSymbolsTests {
    static let demoUUID = "4C4C44FD-5555-3144-A163-0EB9E18A2D65"
    static let signedUUID = "22F2EF0F-3CB2-B91A-AD73-2F5B5124AF60"

    struct Setup: CatalogueFixture {
        let scratch: Scratch
        var tree: String { scratch.path + "/dsyms" }
        var db: String { scratch.path + "/catalog.sqlite" }

        init() throws {
            scratch = try Scratch()
            try FileManager.default.copyItem(atPath: CatalogProcess.fixtures + "/dsyms", toPath: tree)
        }

        func ingest() throws -> CatalogProcess.Result {
            let result = try CatalogProcess.run(["ingest", tree, "--db", db])
            #expect(result.status == 0, "\(result.stderr)")
            return result
        }
    }

    @Test func everyFormIsFoundByItsUUID() throws {
        let setup = try Setup()
        let first = try setup.ingest()
        #expect(first.stderr.contains("1 skipped (1 zip without an app or dSYMs)"), "a zip of sources is left out quietly: \(first.stderr)")
        #expect(!first.stderr.contains("warning"), "\(first.stderr)")
        let rows = try setup.records(["builds", "--uuid", Self.demoUUID.lowercased().replacingOccurrences(of: "-", with: "")])
        let found = rows.map { "\($0["source_kind"] as? String ?? "?") \(($0["path"] as? String ?? "").replacingOccurrences(of: setup.tree + "/", with: "")) \($0["dsym_path"] as? String ?? "?")" }
        #expect(found.sorted() == [
            "dsym Loose/Demo.app.dSYM Contents/Resources/DWARF/Demo",
            "zip Demo.app.dSYM.zip Demo.app.dSYM/Contents/Resources/DWARF/Demo",
            "zip appDsyms.zip 4C4C44FD-5555-3144-A163-0EB9E18A2D65.dSYM/Contents/Resources/DWARF/Demo",
        ], "\(found)")
        #expect(rows.allSatisfy { $0["type"] as? String == "dsym" && $0["bundle_id"] as? String == "com.example.demo"
            && $0["formatted_version"] as? String == "3.1 (310)" && $0["binary_arch"] as? String == "arm64" })
        // The other app's dSYM in App Store Connect's zip, by the bracketed spelling of a .crash file.
        let signed = try setup.records(["builds", "--uuid", "<22f2ef0f3cb2b91aad732f5b5124af60>"])
        #expect(signed.map { $0["source_kind"] as? String } == ["zip"])
        // Filters a dSYM has no answer for leave it out.
        #expect(try setup.records(["builds", "--uuid", Self.demoUUID, "--team", "TEAM123456"]).isEmpty)
        #expect(try setup.records(["builds", "com.example.demo", "--uuid", Self.demoUUID]).count == 3)

        let crash = try setup.run(["crash", CatalogProcess.fixtures + "/symbolication/demo.ips", "--json"])
        let report = (try CatalogProcess.json(crash.stdout) as? [[String: Any]])?.first
        let dsyms = ((report?["main_image"] as? [String: Any])?["dsyms"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(dsyms.contains(setup.tree + "/Loose/Demo.app.dSYM/Contents/Resources/DWARF/Demo"), "\(dsyms)")
        #expect(dsyms.contains(setup.tree + "/Demo.app.dSYM.zip!Demo.app.dSYM/Contents/Resources/DWARF/Demo"), "\(dsyms)")
        #expect(dsyms.count == 3)
        #expect(crash.status == 1, "a dSYM is not the build: the main image's build is still not found")
    }

    @Test func anUnchangedTreeIsNotReadAgainAndWhatIsGoneIsRemoved() throws {
        let setup = try Setup()
        _ = try setup.ingest()
        let again = try setup.ingest()
        #expect(again.stderr.contains("(read 0, 4 unchanged)"), "\(again.stderr)")
        try FileManager.default.removeItem(atPath: setup.tree + "/Loose")
        try FileManager.default.removeItem(atPath: setup.tree + "/Demo.app.dSYM.zip")
        _ = try setup.ingest()
        let present = try setup.records(["builds", "--uuid", Self.demoUUID])
        #expect(present.map { $0["source_kind"] as? String } == ["zip"], "only App Store Connect's zip is left")
        let all = try setup.records(["builds", "--uuid", Self.demoUUID, "--include-removed"])
        #expect(all.count == 3)
        #expect(all.filter { $0["removed_at"] is String }.count == 2, "kept, marked removed, never deleted")
    }

    @Test(.enabled(if: CrashSymbolicationTests.canRun, "llvm-symbolizer is not installed (Debian: apt-get install llvm)"))
    func aDSYMInAZipSymbolicates() throws {
        let setup = try Setup()
        let result = try CatalogProcess.run(["ingest", setup.tree + "/appDsyms.zip", "--db", setup.db, "--quiet"])
        #expect(result.status == 0)
        let crash = try setup.run(["crash", CatalogProcess.fixtures + "/symbolication/demo.crash", "--symbolicate", "--json"])
        let report = (try CatalogProcess.json(crash.stdout) as? [[String: Any]])?.first
        let frames = (report?["crashed_thread"] as? [String: Any])?["frames"] as? [[String: Any]] ?? []
        #expect(frames.first?["symbol"] as? String == "Demo.crash(Builtin.Int64) -> Builtin.Int64", "\(crash.stderr)")
        #expect(frames.first?["line"] as? Int == 5)
    }
}
