import CatalogTestSupport
import Foundation
import Testing

/// The throwaway cluster's Unix socket must fit in `sockaddr_un`: under macOS's temporary folder
/// (`/private/var/folders/…/T/`) it would not, and the server would never start.
@Suite(.timeLimit(.minutes(10))) struct PostgresTestServerTests {
    static let socket = "/socket/.s.PGSQL.5432"
    /// macOS's temporary folder for a user, as `realpath` spells it.
    static let macOSTemporary = "/private/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T/"

    @Test func theClusterFolderLeavesRoomForTheSocket() {
        let long = PostgresTestServer.clusterFolder(under: Self.macOSTemporary)
        #expect(long.hasPrefix("/tmp/catalog-postgres-"))
        #expect((long + Self.socket).utf8.count <= PostgresTestServer.maximumSocketPath)
        let short = PostgresTestServer.clusterFolder(under: "/tmp/")
        #expect(short.hasPrefix("/tmp/catalog-postgres-"))
        let here = PostgresTestServer.clusterFolder()
        #expect((here + Self.socket).utf8.count <= PostgresTestServer.maximumSocketPath, "\(here)")
    }

    @Test(.timeLimit(.minutes(10)))
    func theScriptRefusesAFolderTooLongForTheSocketAndSaysWhy() throws {
        let folder = TestPaths.temporary + "catalog-postgres-" + String(repeating: "x", count: 100)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (status, output) = try CatalogProcess.runAsScheduled(
            "/bin/sh", [TestPaths.packageRoot + "/Scripts/postgres-test-server.sh", "start", folder],
            environment: ["PATH": "/usr/bin:/bin"])
        #expect(status == 1)
        #expect(output.contains("longer than a Unix socket path may be"), "\(output)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/data"))
    }
}
