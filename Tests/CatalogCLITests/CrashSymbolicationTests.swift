import CatalogCore
import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogCLI

/// Issue 53 §6: `crash --symbolicate` turns the crashed thread's frames (every thread's with
/// `--all-threads`) into function, file and line through the catalogued dSYM and the symbolizer on
/// PATH, Swift names demangled; without a symbolizer it says what to install and prints the frames
/// as they are. Fixtures/symbolication is an app linked with DWARF and its dSYM (make_symbolication.sh).
@Suite(.timeLimit(.minutes(5))) struct CrashSymbolicationTests {
    static let folder = CatalogProcess.fixtures + "/symbolication"
    static let llvmSymbolizer = ["/usr/bin", "/usr/local/bin", "/opt/homebrew/opt/llvm/bin"]
        .map { $0 + "/llvm-symbolizer" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    static let canRun = llvmSymbolizer != nil || TestPaths.toolsRequired

    final class Catalogue: CatalogueFixture {
        private let scratch: Scratch
        var db: String { scratch.path + "/catalog.sqlite" }

        init() throws {
            scratch = try Scratch()
            let result = try CatalogProcess.run(["ingest", CrashSymbolicationTests.folder, "--db", db, "--quiet"])
            #expect(result.status == 0, "\(result.stderr)")
        }
    }

    /// What the crashed thread's frames are, by the fixture's sources (demo.swift, main.c).
    static let expected: [(symbol: String, file: String, line: Int)] = [
        ("Demo.crash(Builtin.Int64) -> Builtin.Int64", "/Users/dev/Demo/demo.swift", 5),
        ("Demo.work(Builtin.Int64) -> Builtin.Int64", "/Users/dev/Demo/demo.swift", 10),
        ("handle_request", "/Users/dev/Demo/main.c", 5),
        ("start", "/Users/dev/Demo/main.c", 11),
    ]

    static func frames(_ thread: Any?) -> [[String: Any]] { (thread as? [String: Any])?["frames"] as? [[String: Any]] ?? [] }

    @Test(.enabled(if: canRun, "llvm-symbolizer is not installed (Debian: apt-get install llvm)"),
          arguments: ["demo.ips", "demo.crash"])
    func framesBecomeFunctionFileAndLine(report: String) throws {
        #expect(Self.llvmSymbolizer != nil, "llvm-symbolizer is required here (CATALOG_TEST_REQUIRE_TOOLS)")
        let catalogue = try Catalogue()
        let result = try catalogue.run(["crash", Self.folder + "/" + report, "--symbolicate", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let row = try #require((try CatalogProcess.json(result.stdout) as? [[String: Any]])?.first)
        let crashed = row["crashed_thread"] as? [String: Any]
        #expect(crashed?["index"] as? Int == 0)
        let frames = Self.frames(crashed)
        #expect(frames.map { $0["symbol"] as? String } == Self.expected.map(\.symbol))
        #expect(frames.map { $0["file"] as? String } == Self.expected.map(\.file))
        #expect(frames.map { $0["line"] as? Int } == Self.expected.map(\.line))
        #expect(frames.map { $0["image"] as? String } == Array(repeating: "Demo", count: 4))
        let expectedAddresses = try Self.fixtureExpectation()["crashed_frames"] as? [String] ?? []
        #expect(frames.compactMap { $0["address"] as? String } == expectedAddresses)
        #expect(row["threads"] == nil, "threads only with --all-threads")

        let all = try catalogue.run(["crash", Self.folder + "/" + report, "--symbolicate", "--all-threads", "--json"])
        let threads = (try CatalogProcess.json(all.stdout) as? [[String: Any]])?.first?["threads"] as? [[String: Any]] ?? []
        #expect(threads.map { $0["index"] as? Int } == [0, 1])
        let other = Self.frames(threads.last)
        #expect(other.first?["symbol"] as? String == (report.hasSuffix(".ips") ? "__workq_kernreturn" : "__workq_kernreturn + 8"),
                "a system frame keeps the report's symbol")
        #expect(other.first?["file"] is NSNull)
        #expect(other.last?["symbol"] as? String == "start" && other.last?["line"] as? Int == 11)

        let table = try catalogue.run(["crash", Self.folder + "/" + report, "--symbolicate", "--format", "table"])
        #expect(table.stdout.contains("thread 0 crashed:"), "\(table.stdout)")
        #expect(table.stdout.contains("Demo.crash(Builtin.Int64) -> Builtin.Int64 (/Users/dev/Demo/demo.swift:5)"), "\(table.stdout)")
    }

    @Test func withoutASymbolizerItSaysWhatToInstallAndPrintsTheFrames() throws {
        let catalogue = try Catalogue()
        let empty = try Scratch()
        let result = try catalogue.run(["crash", Self.folder + "/demo.crash", "--symbolicate", "--json"], environment: ["PATH": empty.path])
        #expect(result.status == 0, "the build is found: \(result.stderr)")
        #expect(result.stderr.contains("apt-get install llvm") && result.stderr.contains("atos"), "\(result.stderr)")
        let row = try #require((try CatalogProcess.json(result.stdout) as? [[String: Any]])?.first)
        let frames = Self.frames(row["crashed_thread"])
        #expect(frames.count == 4)
        #expect(frames.allSatisfy { $0["symbol"] is NSNull && $0["file"] is NSNull && $0["address"] is String })
        // For people, each frame as Apple writes one it could not name: load address + offset.
        let table = try catalogue.run(["crash", Self.folder + "/demo.crash", "--symbolicate", "--format", "table"],
                                      environment: ["PATH": empty.path])
        #expect(table.stdout.contains("0   Demo  0x0000000102a3c028  0x102a38000 + 16424\n"), "\(table.stdout)")
        let plain = try catalogue.run(["crash", Self.folder + "/demo.crash", "--json"])
        #expect((try CatalogProcess.json(plain.stdout) as? [[String: Any]])?.first?["crashed_thread"] == nil,
                "the keys come with --symbolicate only")
        #expect(try catalogue.run(["crash", Self.folder + "/demo.crash", "--all-threads"]).status == 64)
    }

    /// The dSYM's `__TEXT` address is where its DWARF expects the image (not zero).
    @Test func theDSYMsTextSegmentAddressIsRead() throws {
        let dwarf = Self.folder + "/Demo.xcarchive/dSYMs/Demo.app.dSYM/Contents/Resources/DWARF/Demo"
        let file = try MachOFile(contentsOf: URL(fileURLWithPath: dwarf), trust: nil)
        let expected = try Self.fixtureExpectation()
        #expect(file.slices.first?.textAddress.map { "0x" + String($0, radix: 16) } == expected["text_address"] as? String)
        #expect(file.slices.first?.uuid == expected["uuid"] as? String)
    }

    /// atos's lines (macOS), read as the tool writes them; Swift names demangled where atos left them.
    @Test func atosOutputIsRead() {
        let output = """
            Demo.crash(Builtin.Int64) -> Builtin.Int64 (in Demo) (demo.swift:5)
            $s4Demo4workyBi64_Bi64_F (in Demo) + 24
            0x102a3c004
            start (in Demo) (main.c:11)

            """
        let found = Symbolizer.parseAtos(output, addresses: [1, 2, 3, 4])
        #expect(found[1] == Symbolizer.Location(symbol: "Demo.crash(Builtin.Int64) -> Builtin.Int64", file: "demo.swift", line: 5))
        #expect(found[2] == Symbolizer.Location(symbol: "Demo.work(Builtin.Int64) -> Builtin.Int64", file: nil, line: nil))
        #expect(found[3] == nil)
        #expect(found[4]?.line == 11)
        #expect(SwiftDemangler.demangle("handle_request") == "handle_request")
    }

    /// A symbolizer that hangs is stopped at the time limit and said to be, not to have "failed";
    /// one that exits non-zero is named with its status.
    @Test func aSymbolizerThatHangsIsStoppedAndSaidToBe() throws {
        let scratch = try Scratch()
        let hangs = try scratch.write("hangs.sh", Array("#!/bin/sh\nexec sleep 30\n".utf8))
        let fails = try scratch.write("fails.sh", Array("#!/bin/sh\nexit 3\n".utf8))
        for script in [hangs, fails] { chmod(script, 0o755) }
        let started = Date()
        #expect { try Symbolizer.run(hangs, [], timeLimit: 1) } throws: { error in
            "\(error)" == "\(hangs) gave no answer within 1 s and was stopped"
        }
        #expect(Date().timeIntervalSince(started) < 20, "stopped at the limit, not when it ended")
        #expect { try Symbolizer.run(fails, []) } throws: { error in "\(error)" == "\(fails) failed (exit status 3)" }
    }

    static func fixtureExpectation() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/expected.json"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}
