import Foundation
import Testing
import CatalogTestSupport

/// Issue 16: libpq only when used. `catalog` loads libpq at run time (dlopen) for a `postgresql://`
/// catalogue, so the binary itself does not depend on it: copied alone to a machine without libpq,
/// it still serves SQLite.
@Suite(.timeLimit(.minutes(10))) struct LibPQIndependenceTests {
    static var canList: Bool {
        LinkedLibraries.canList && FileManager.default.isExecutableFile(atPath: TestPaths.catalogExecutable)
    }

    @Test(.enabled(if: LibPQIndependenceTests.canList, "no \(LinkedLibraries.lister[0]) or no built catalog binary"))
    func theBinaryDoesNotLinkLibpq() throws {
        let (status, text) = try LinkedLibraries.listing(of: TestPaths.catalogExecutable)
        #expect(status == 0)
        // Control: the listing names the libraries it does link.
        #expect(text.contains("libsqlite3") || text.contains("libz"), "unexpected listing: \(text)")
        #expect(!text.contains("libpq"), "catalog links libpq at build time:\n\(text)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: TestPaths.catalogExecutable), "the catalog binary is not built"))
    func aSQLiteCatalogueNeedsNoLibpq() throws {
        let scratch = try Scratch()
        let folder = scratch.path
        // A libpq that cannot be found: any attempt to load it would fail the command.
        let result = try CatalogProcess.run(["ingest", TestPaths.fixtures + "/profiles", "--db", folder + "/c.sqlite", "--quiet"],
                                            environment: ["CATALOG_LIBPQ": folder + "/no-such-libpq.so.5"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("libpq"))
    }
}
