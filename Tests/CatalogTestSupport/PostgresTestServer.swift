import Foundation

/// The PostgreSQL server the tests use: `$CATALOG_TEST_POSTGRES_URL` (set by `.ci/run`, which starts
/// a throwaway cluster with `Scripts/postgres-test-server.sh`), else a cluster this test process
/// starts itself with the same script when `initdb` is on the machine (PATH or
/// `/usr/lib/postgresql/*/bin`), stopped when the process ends. Tests that need it are skipped with
/// ``unavailableReason`` when there is none, or when `CATALOG_TEST_NO_POSTGRES=1` hides it — except
/// under `.ci/run` (`TestPaths.toolsRequired`), where they run and fail.
public enum PostgresTestServer {
    public static let urlVariable = "CATALOG_TEST_POSTGRES_URL"

    /// The superuser connection string of a database the tests may create databases and roles from.
    public static var url: String? { server.url }

    /// Why ``url`` is nil (empty when there is a server).
    public static var unavailableReason: String { server.reason }

    /// Whether tests needing the server run: it is there, or they must (and then fail without it).
    public static var testsEnabled: Bool { url != nil || TestPaths.toolsRequired }

    public static let hideVariable = "CATALOG_TEST_NO_POSTGRES"

    private static let server: (url: String?, reason: String) = {
        let hidden = ProcessInfo.processInfo.environment[hideVariable] ?? ""
        if !hidden.isEmpty && hidden != "0" {
            return (nil, "\(hideVariable) is set: PostgreSQL tests skipped")
        }
        if let url = ProcessInfo.processInfo.environment[urlVariable], !url.isEmpty { return (url, "") }
        let initdbFound = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }
            || ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
                .contains { FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb") }
        guard initdbFound else {
            return (nil, "no PostgreSQL server: \(urlVariable) is not set and initdb is not installed "
                    + "(apt-get install postgresql): PostgreSQL tests skipped")
        }
        let folder = clusterFolder()
        let script = TestPaths.packageRoot + "/Scripts/postgres-test-server.sh"
        // Not Foundation's Process: this runs inside a static initialiser on one of Swift Testing's
        // few cooperative threads, and Process reaps its child on a dispatch queue those threads may
        // all be blocked from serving. posix_spawn and waitpid block only this thread.
        let (status, url, message) = run(["/bin/sh", script, "start", folder, String(getpid())])
        guard status == 0, !url.isEmpty else {
            return (nil, "Scripts/postgres-test-server.sh could not start a cluster: \(message): PostgreSQL tests skipped")
        }
        return (url, "")
    }()

    /// The longest path a Unix socket may have: `sockaddr_un` holds 104 bytes on macOS (108 on
    /// Linux), the last for the NUL.
    public static let maximumSocketPath = 103

    /// A new folder for a cluster this process starts, under `temporary` when the server's socket
    /// (`FOLDER/socket/.s.PGSQL.5432`) fits in ``maximumSocketPath`` there, else under `/tmp`:
    /// macOS's temporary folder (`/private/var/folders/…/T/`) is too long for it.
    public static func clusterFolder(under temporary: String = TestPaths.temporary) -> String {
        let name = "catalog-postgres-\(getpid())-\(UUID().uuidString.prefix(8))"
        let preferred = temporary + name
        return (preferred + "/socket/.s.PGSQL.5432").utf8.count <= maximumSocketPath ? preferred : "/tmp/" + name
    }

    /// Runs `arguments` and returns its exit status, stdout and stderr (trimmed).
    private static func run(_ arguments: [String]) -> (Int32, String, String) {
        let output = TestPaths.temporary + "catalog-postgres-\(getpid())-\(UUID().uuidString).out"
        let errors = output + ".err"
        defer {
            unlink(output)
            unlink(errors)
        }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = arguments.map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + environment).forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, environment)
        guard spawned == 0 else { return (-1, "", String(cString: strerror(spawned))) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        func read(_ path: String) -> String {
            ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let exited = status & 0x7f == 0
        return (exited ? (status >> 8) & 0xff : -1, read(output), read(errors))
    }
}

extension PostgresTestServer {
    /// `url` with its database (the URI path) replaced.
    public static func replacingDatabase(in url: String, with database: String) -> String {
        let (prefix, rest) = splitAuthority(url)
        let query = rest.firstIndex(of: "?").map { String(rest[$0...]) } ?? ""
        return prefix + "/" + database + query
    }

    /// `url` with its user (the URI userinfo) replaced.
    public static func replacingUser(in url: String, with user: String) -> String {
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
