import Foundation
import Testing
import CatalogTestSupport

/// Issue 9 §5: the test hooks (`CATALOG_TEST_KILL_AFTER_WRITES`, `CATALOG_TEST_STOP_AFTER_WRITES`,
/// `CATALOG_TEST_TRASH`) are compiled into debug builds only. `.ci/run` builds the release binary
/// before `swift test`, so CI always checks it; elsewhere the test is skipped when there is no
/// release build.
@Suite(.timeLimit(.minutes(10))) struct ReleaseBuildTests {
    static let release = TestPaths.packageRoot + "/.build/release/catalog"
    static var hasRelease: Bool { FileManager.default.isExecutableFile(atPath: release) }
    static let hookNames = ["CATALOG_TEST_KILL_AFTER_WRITES", "CATALOG_TEST_STOP_AFTER_WRITES", "CATALOG_TEST_TRASH"]

    private func contains(_ binary: String, _ needle: String) throws -> Bool {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: binary))
        return bytes.range(of: Data(needle.utf8)) != nil
    }

    /// Control: the search finds the names in the debug binary the tests use.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: TestPaths.catalogExecutable), "the catalog binary is not built"))
    func theDebugBinaryHasTheHooks() throws {
        for name in Self.hookNames {
            #expect(try contains(TestPaths.catalogExecutable, name), "\(name) missing from the debug build")
        }
    }

    @Test(.enabled(if: ReleaseBuildTests.hasRelease, "no .build/release/catalog (run 'swift build -c release --product catalog'; .ci/run does)"))
    func theReleaseBinaryHasNoHooks() throws {
        for name in Self.hookNames {
            #expect(try !contains(Self.release, name), "\(name) is in the release build")
        }
        // And setting the variable does nothing: the ingest runs to the end instead of dying.
        let scratch = try Scratch()
        let folder = scratch.path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.release)
        process.arguments = ["ingest", TestPaths.fixtures + "/profiles", "--db", folder + "/catalog.sqlite", "--quiet"]
        process.environment = ["CATALOG_TEST_KILL_AFTER_WRITES": "1", "CATALOG_TEST_STOP_AFTER_WRITES": "1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }

    /// Issue 53 §6: Swift names are demangled through the runtime's `swift_demangle`, which the
    /// release binary must still reach with the runtime linked in statically. Only under CI, where
    /// `.ci/run` has just built it (a release build left from older sources would lack the command).
    @Test(.enabled(if: TestPaths.isCI && ReleaseBuildTests.hasRelease && CrashSymbolicationTests.canRun,
                   "only under CI (the CI environment variable is set), with a release build and llvm-symbolizer"))
    func theReleaseBinaryDemanglesSwiftNames() throws {
        #expect(CrashSymbolicationTests.llvmSymbolizer != nil, "llvm-symbolizer is required here (CATALOG_TEST_REQUIRE_TOOLS)")
        let scratch = try Scratch()
        let db = scratch.path + "/catalog.sqlite"
        func release(_ arguments: [String]) throws -> CatalogProcess.Result {
            try CatalogProcess.run(arguments, binary: Self.release)
        }
        #expect(try release(["ingest", CrashSymbolicationTests.folder, "--db", db, "--quiet"]).status == 0)
        let result = try release(["crash", CrashSymbolicationTests.folder + "/demo.crash", "--symbolicate", "--db", db,
                                  "--format", "table"])
        #expect(result.status == 0)
        // Control: the C function, which needs no demangling, is there too.
        #expect(result.stdout.contains("handle_request (/Users/dev/Demo/main.c:5)"), "\(result.stdout)")
        #expect(result.stdout.contains("Demo.crash(Builtin.Int64) -> Builtin.Int64 (/Users/dev/Demo/demo.swift:5)"),
                "\(result.stdout)")
    }

    #if os(Linux)
    /// The README installs on Linux with `--static-swift-stdlib`, as `.ci/run` builds it: a build
    /// host then needs the system libraries only, no Swift toolchain. Only under CI, where the
    /// release binary is built that way (a plain `swift build -c release` elsewhere links the
    /// runtime from the toolchain, which is no defect).
    @Test(.enabled(if: TestPaths.isCI && ReleaseBuildTests.hasRelease && LinkedLibraries.canList,
                   "only under CI (the CI environment variable is set), with a release build and ldd"))
    func theReleaseBinaryNeedsNoSwiftRuntime() throws {
        let (status, text) = try LinkedLibraries.listing(of: Self.release)
        #expect(status == 0)
        // Control: the listing names the system libraries it does link.
        #expect(text.contains("libsqlite3") && text.contains("libcrypto"), "unexpected listing: \(text)")
        for runtime in ["libswiftCore", "libFoundation", "libdispatch"] {
            #expect(!text.contains(runtime), "the release binary links \(runtime):\n\(text)")
        }
    }
    #endif
}
