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
        url = Self.replacingDatabase(in: serverURL, with: name)
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
        Self.replacingUser(in: url, with: user)
    }

    /// `url` with its database (the URI path) replaced.
    static func replacingDatabase(in url: String, with database: String) -> String {
        let (prefix, rest) = splitAuthority(url)
        let query = rest.firstIndex(of: "?").map { String(rest[$0...]) } ?? ""
        return prefix + "/" + database + query
    }

    /// `url` with its user (the URI userinfo) replaced.
    static func replacingUser(in url: String, with user: String) -> String {
        let (prefix, rest) = splitAuthority(url)
        let schemeEnd = prefix.range(of: "://")!.upperBound
        let authority = prefix[schemeEnd...]
        let host = authority.lastIndex(of: "@").map { String(authority[authority.index(after: $0)...]) } ?? String(authority)
        return String(prefix[..<schemeEnd]) + user + "@" + host + rest
    }

    /// `scheme://authority` and the rest (`/db?query`).
    private static func splitAuthority(_ url: String) -> (String, String) {
        let schemeEnd = url.range(of: "://")!.upperBound
        let rest = url[schemeEnd...]
        let end = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        return (String(url[..<end]), String(url[end...]))
    }
}

/// Thrown by a test that needs a server when there is none and `.ci/run` requires one.
struct PostgresTestServerUnavailable: Error, CustomStringConvertible {
    let reason: String
    var description: String { "PostgreSQL tests are required here but cannot run: \(reason)" }
}
