import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// A fresh database on the test server (``PostgresTestServer``) for one test, so tests running in
/// parallel never see each other's tables or grants. The test drops it (`defer { database.drop() }`,
/// which also keeps it alive to the end of the test: a drop in `deinit` could run as soon as the
/// value's last use, under the test's open connections).
final class PostgresTestDatabase {
    /// The database's name, `catalog_t_` and random hex.
    let name: String
    /// A superuser connection string for it.
    let url: String
    private let serverURL: String

    /// Whether the tests that need a server run (see ``PostgresTestServer/testsEnabled``): they also
    /// need libpq, which the server's package brings.
    static var enabled: Bool { PostgresTestServer.testsEnabled }

    /// The reason shown when they are skipped.
    static var skipReason: Comment { Comment(rawValue: PostgresTestServer.unavailableReason) }

    init() throws {
        guard let serverURL = PostgresTestServer.url else {
            throw PostgresTestServerUnavailable(reason: PostgresTestServer.unavailableReason)
        }
        self.serverURL = serverURL
        name = "catalog_t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        url = PostgresTestServer.replacingDatabase(in: serverURL, with: name)
        let admin = try PostgreSQLConnection(serverURL)
        try admin.execute("CREATE DATABASE \(name)")
    }

    func drop() {
        if let admin = try? PostgreSQLConnection(serverURL) {
            _ = try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        }
    }

    func connect() throws -> PostgreSQLConnection {
        try PostgreSQLConnection(url)
    }

    /// A connection string for the same database as another role (no password: the test cluster
    /// trusts its socket; on another server set the password in ~/.pgpass).
    func url(asUser user: String) -> String {
        PostgresTestServer.replacingUser(in: url, with: user)
    }
}

/// Thrown by a test that needs a server when there is none and `.ci/run` requires one.
struct PostgresTestServerUnavailable: Error, CustomStringConvertible {
    let reason: String
    var description: String { "PostgreSQL tests are required here but cannot run: \(reason)" }
}
