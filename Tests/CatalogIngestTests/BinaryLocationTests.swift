import Foundation
import Testing
import CatalogTestSupport

/// Issue 17: the tests that run `catalog` find it beside the test bundle on every platform, and under
/// CI a missing binary is a failure, never a quiet skip of a fifth of the suite.
@Suite(.timeLimit(.minutes(10))) struct BinaryLocationTests {
    @Test(.enabled(if: TestPaths.isCI, "only under CI (the CI environment variable is set)"))
    func theCatalogBinaryIsFoundUnderCI() {
        #expect(CatalogBinary.isBuilt,
                "no catalog executable; looked at \(TestPaths.executableCandidates.joined(separator: ", "))")
    }

    @Test(.enabled(if: CatalogBinary.isBuilt, "the catalog binary was not found (run `swift build`, or set CATALOG_BIN)"))
    func theFoundBinaryIsTheCatalogCommand() throws {
        let result = try CatalogBinary.run(["--help"])
        #expect(result.status == 0)
        #expect((result.stdout + result.stderr).contains("ingest"))
    }

    @Test func theCandidatesIncludeTheTestBundleFolderAndTheBuildFolder() {
        let candidates = TestPaths.executableCandidates
        let bundleFolder = Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("catalog").path
        #expect(candidates.contains(bundleFolder))
        #expect(candidates.contains(TestPaths.packageRoot + "/.build/debug/catalog"))
        #expect(candidates.allSatisfy { $0.hasSuffix("/catalog") })
    }
}
