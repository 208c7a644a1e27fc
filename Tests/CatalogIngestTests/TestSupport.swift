import CatalogCore
import Foundation
import Testing
@testable import CatalogIngest
@testable import CatalogStore
import CatalogTestSupport

typealias IngestPaths = TestPaths

extension TestPaths {
    static var isRoot: Bool { getuid() == 0 }
}

enum Shell {
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

// MARK: In-process ingests and catalogue inspection

/// Runs one ingest of `roots` into the catalogue at `db` (created if missing) through a fresh connection.
@discardableResult
func ingest(_ roots: [String], db: String, full: Bool = false, batchSize: Int? = nil,
            excludes: [String] = [], resolver: (any PathResolving)? = nil,
            progress: @escaping (Ingester.Progress) -> Void = { _ in }) throws -> IngestReport {
    let connection = try Connection.openCatalogue(path: db)
    var options = IngestOptions(roots: roots, excludes: excludes, full: full)
    if let batchSize { options.batchSize = batchSize }
    if let resolver { options.pathResolver = resolver }
    return try Ingester(db: connection, options: options).run(progress: progress)
}

/// What decode makes of the catalogued `build`: the file or folder at its path, or for a bundle
/// nested in an `.ipa` or app zip, that bundle as the ingest reads it.
func decodedBuild(_ build: BuildSummary, trust: TrustAnchors?) throws -> BuildArtifact {
    guard build.sourceKind == .ipa || build.sourceKind == .zip else {
        return try BuildArtifact(contentsOf: URL(fileURLWithPath: build.path), trust: trust)
    }
    let archive = try ZipArchive(path: build.path)
    let app = try #require(IPAReader.appPrefix(in: archive.entries) ?? IPAReader.topLevelAppPrefix(in: archive.entries))
    let builds = try IPAReader.readBuilds(archive, app: app, kind: build.sourceKind, trust: trust).builds
    return try #require(builds.first { $0.appPath == build.appPath }, "\(build.path): no \(build.appPath ?? "app")")
}

func readBytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}

func permissions(of path: String) throws -> Int {
    try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1
}

/// Sets a file's mtime (and atime) to `seconds` since 1970 plus `nanoseconds`.
func setModificationTime(_ path: String, seconds: Int, nanoseconds: Int = 0) throws {
    var times = [timespec(tv_sec: seconds, tv_nsec: nanoseconds), timespec(tv_sec: seconds, tv_nsec: nanoseconds)]
    guard utimensat(AT_FDCWD, path, &times, 0) == 0 else {
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}

extension Connection {
    func strings(_ sql: String, _ parameters: [SQLValue] = []) throws -> [String] {
        try query(sql, parameters).map { row in
            switch row[0] {
            case .null: return "NULL"
            case .integer(let value): return String(value)
            case .real(let value): return String(value)
            case .text(let value): return value
            case .blob(let value): return String(decoding: value, as: UTF8.self)
            }
        }
    }

    func count(_ sql: String, _ parameters: [SQLValue] = []) throws -> Int {
        try queryFirst(sql, parameters)?.int("n") ?? -1
    }
}

/// `PRAGMA integrity_check` of the file at `path` (no migration, no WAL switch). Read-write, as the
/// next ingest would open it: after a crash a hot journal or WAL needs recovery, which a read-only
/// connection may not do.
func integrityCheck(_ path: String) throws -> String {
    let connection = try Connection(path: path, readOnly: false, wal: false)
    return try connection.strings("PRAGMA integrity_check").joined(separator: "\n")
}

/// A canonical, order-independent dump of what a catalogue holds (no timestamps or run ids), so two
/// catalogues built from the same tree compare equal whatever happened on the way.
func canonicalDump(_ path: String) throws -> [String] {
    let connection = try Connection(path: path, readOnly: true, wal: false)
    let queries = [
        "SELECT 'profile ' || uuid || ' ' || sha256 AS line FROM profiles",
        "SELECT 'location ' || path || ' ' || profile_uuid || ' ' || (removed_at IS NULL) AS line FROM profile_locations",
        """
        SELECT 'build ' || path || ' | ' || app_path || ' | ' || ifnull(bundle_id, '-') || ' | ' || short_version
            || ' | ' || build || ' | ' || ifnull(profile_uuid, '-') || ' | ' || (removed_at IS NULL)
            || ' | parent ' || ifnull((SELECT p.path FROM builds p WHERE p.id = builds.parent_build_id), '-') AS line
        FROM builds
        """,
        "SELECT 'certificate ' || sha1 AS line FROM certificates",
        "SELECT 'device ' || udid AS line FROM devices",
        "SELECT 'entitlement ' || p.uuid || ' ' || key || ' ' || value_json AS line FROM entitlements JOIN profiles p ON p.id = profile_id",
        """
        SELECT 'profile_certificate ' || p.uuid || ' ' || certificate_sha1 AS line
        FROM profile_certificates JOIN profiles p ON p.id = profile_id
        """,
        """
        SELECT 'undecodable_certificate ' || profile_uuid || ' ' || position || ' ' || sha1 || ' ' || reason AS line
        FROM profile_undecodable_certificates
        """,
        """
        SELECT 'profile_device ' || p.uuid || ' ' || d.udid AS line
        FROM device_profiles dp, json_each(dp.profile_ids) listed, profiles p, devices d
        WHERE p.id = listed.value AND d.id = dp.device_id
        """,
        """
        SELECT 'listed_device ' || p.uuid || ' ' || d.udid AS line
        FROM profiles p, json_each(p.device_ids) listed, devices d WHERE d.id = listed.value
        """,
        "SELECT 'file ' || path || ' ' || size || ' ' || status || ' ' || ifnull(sha256, '-') AS line FROM files",
    ]
    var lines: [String] = []
    for sql in queries {
        // A catalogue killed before its first migration has no tables yet: it dumps as empty.
        guard let rows = try? connection.query(sql) else { continue }
        lines += rows.map { $0.string("line") ?? "NULL" }
    }
    return lines.sorted()
}

/// Waits up to `seconds` for process `pid` to be stopped by a signal (the ingest's test hook
/// `CATALOG_TEST_STOP_AFTER_WRITES` stops itself mid-transaction); false if it ends or never stops.
/// Reads `/proc/PID/stat` where there is one (Linux), else asks `ps` (macOS).
func waitUntilStopped(_ pid: pid_t, seconds: Double = 60) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        guard let state = processState(pid) else { return false }
        if state == "T" { return true }
        if state == "Z" { return false }
        usleep(20_000)
    }
    return false
}

/// The one-letter state of process `pid` (R, S, T, Z, …), nil when there is no such process.
private func processState(_ pid: pid_t) -> Character? {
    // /proc/PID/stat: "pid (comm) STATE …".
    if FileManager.default.fileExists(atPath: "/proc/self/stat") {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(close, offsetBy: 2)...].first
    }
    let ps = Process()
    ps.executableURL = URL(fileURLWithPath: "/bin/ps")
    ps.arguments = ["-o", "stat=", "-p", String(pid)]
    let pipe = Pipe()
    ps.standardOutput = pipe
    ps.standardError = FileHandle.nullDevice
    guard (try? ps.run()) != nil else { return nil }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    ps.waitUntilExit()
    return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).first
}

// MARK: The built `catalog` binary

/// Runs the built `catalog` executable (found beside the test bundle) as a child process.
enum CatalogBinary {
    struct Result {
        var status: Int32
        var signalled: Bool
        var stdout: String
        var stderr: String
    }

    static var executable: String { TestPaths.catalogExecutable }

    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// Whether the tests that run the binary run. Under CI always: a missing binary then fails them
    /// (and `theCatalogBinaryIsFoundUnderCI`) rather than skipping them unnoticed.
    static var isAvailable: Bool { isBuilt || TestPaths.isCI }

    /// A started child with its output going to files (no pipe can fill up and block it).
    final class Child {
        let process: Process
        private let outPath: String
        private let errPath: String

        /// `omitBinary`: run `launcher + arguments` alone (another program, under the same launcher).
        init(_ arguments: [String], environment: [String: String] = [:], launcher: [String] = [],
             omitBinary: Bool = false) throws {
            process = Process()
            let all = launcher + (omitBinary ? [] : [CatalogBinary.executable]) + arguments
            process.executableURL = URL(fileURLWithPath: all[0])
            process.arguments = Array(all.dropFirst())
            var env = ProcessInfo.processInfo.environment
            env.removeValue(forKey: "CATALOG_DB")
            env.removeValue(forKey: "CATALOG_TEST_KILL_AFTER_WRITES")
            env.removeValue(forKey: "CATALOG_TEST_STOP_AFTER_WRITES")
            for (key, value) in environment { env[key] = value }
            process.environment = env
            let base = FileManager.default.temporaryDirectory.path + "/catalog-child-\(UUID().uuidString)"
            outPath = base + ".out"
            errPath = base + ".err"
            _ = FileManager.default.createFile(atPath: outPath, contents: nil)
            _ = FileManager.default.createFile(atPath: errPath, contents: nil)
            process.standardOutput = FileHandle(forWritingAtPath: outPath)
            process.standardError = FileHandle(forWritingAtPath: errPath)
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }

        var pid: pid_t { process.processIdentifier }

        /// Waits at most `seconds`; a child still running then is killed (SIGKILL) and nil returned.
        func wait(timeout seconds: Double) -> Result? {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            guard process.isRunning else { return wait() }
            kill(pid, SIGKILL)
            _ = wait()
            return nil
        }

        func wait() -> Result {
            process.waitUntilExit()
            defer {
                try? FileManager.default.removeItem(atPath: outPath)
                try? FileManager.default.removeItem(atPath: errPath)
            }
            let out = (try? Data(contentsOf: URL(fileURLWithPath: outPath))) ?? Data()
            let err = (try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data()
            return Result(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
                          stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
        }
    }

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        try Child(arguments, environment: environment).wait()
    }
}


// MARK: Running without root's privileges

enum Unprivileged {
    /// How to run the binary so file modes bite: as is when not root, else through `setpriv` as
    /// nobody (root reads and writes whatever the modes say). nil when neither is possible.
    static var launcher: [String]? {
        if !IngestPaths.isRoot { return [] }
        let setpriv = "/usr/bin/setpriv"
        guard FileManager.default.isExecutableFile(atPath: setpriv) else { return nil }
        return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
    }

    static var isAvailable: Bool { launcher != nil && CatalogBinary.isAvailable }

    /// Makes a scratch folder usable by the unprivileged user (it may create the catalogue there).
    static func open(_ path: String) throws {
        if IngestPaths.isRoot { try Shell.run("/bin/chmod", ["-R", "a+rwX", path]) }
    }

    static func run(_ arguments: [String]) throws -> CatalogBinary.Result {
        try CatalogBinary.Child(arguments, launcher: launcher ?? []).wait()
    }
}
