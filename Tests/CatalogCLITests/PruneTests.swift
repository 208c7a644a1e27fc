@testable import CatalogCLI
import CatalogTestSupport
import Foundation
import Testing

/// `catalog prune` on real files in temporary folders: dry by default, trash or delete with
/// --apply / --delete, and never a file inside a build, outside the roots, the newest of an app
/// id, or one that changed since it was catalogued.
@Suite(.timeLimit(.minutes(10))) struct PruneTests {
    static let asOf = ["--as-of", "2026-11-20"]

    /// A temp folder with `tree/` (copies of fixture profiles and Example.app), `home/` and a
    /// catalogue of the tree.
    struct Setup {
        private let scratch: Scratch
        var folder: String { scratch.path }
        var tree: String { folder + "/tree" }
        var home: String { folder + "/home" }
        var db: String { folder + "/catalog.sqlite" }

        init(renewals: [String] = ["renew-adhoc-old", "renew-adhoc-new", "renew-wildcard-old", "renew-wildcard-new"],
             profiles: [String] = ["cert-expires-first"]) throws {
            scratch = try Scratch()
            let fm = FileManager.default
            try fm.createDirectory(atPath: folder + "/tree", withIntermediateDirectories: true)
            try fm.createDirectory(atPath: folder + "/home", withIntermediateDirectories: true)
            for name in renewals {
                try fm.copyItem(atPath: CatalogProcess.fixtures + "/renewals/\(name).mobileprovision", toPath: folder + "/tree/\(name).mobileprovision")
            }
            for name in profiles {
                try fm.copyItem(atPath: CatalogProcess.fixtures + "/profiles/\(name).mobileprovision", toPath: folder + "/tree/\(name).mobileprovision")
            }
            try fm.copyItem(atPath: CatalogProcess.fixtures + "/bundles/Example.app", toPath: folder + "/tree/Example.app")
            try ingest()
        }

        func ingest() throws {
            let result = try CatalogProcess.run(["ingest", tree, "--db", db, "--quiet"])
            #expect(result.status == 0, "\(result.stderr)")
        }

        /// The trash `prune --apply` uses: the freedesktop.org one under `home`. On macOS the test
        /// build is told so (`CATALOG_TEST_TRASH`): the system's trash call ignores HOME, and would
        /// leave the test's files in the real `~/.Trash`.
        var trash: String { home + "/.local/share/Trash" }

        var environment: [String: String] {
            #if os(macOS)
            return ["HOME": home, "XDG_DATA_HOME": "", "CATALOG_TEST_TRASH": trash]
            #else
            return ["HOME": home, "XDG_DATA_HOME": ""]
            #endif
        }

        func prune(_ arguments: [String], root: String? = nil,
                   environment extra: [String: String] = [:]) throws -> (CatalogProcess.Result, [[String: Any]]) {
            let result = try CatalogProcess.run(["prune", root ?? tree, "--db", db, "--json"] + arguments,
                                                environment: environment.merging(extra) { $1 })
            return (result, (try? CatalogProcess.json(result.stdout) as? [[String: Any]]) ?? [])
        }

        func removedUUIDs() throws -> Set<String> {
            let result = try CatalogProcess.run(["profiles", "--removed", "--db", db, "--json"])
            return Set((try CatalogProcess.json(result.stdout) as? [[String: Any]] ?? []).compactMap { $0["uuid"] as? String })
        }

        func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: tree + "/" + name) }
    }

    static func byPath(_ records: [[String: Any]]) -> [String: [String: Any]] {
        Dictionary(records.compactMap { record in (record["path"] as? String).map { (($0 as NSString).lastPathComponent, record) } },
                   uniquingKeysWith: { first, _ in first })
    }

    @Test func aDryRunListsEachFileAndWhyAndChangesNothing() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.folder) }
        let (result, records) = try setup.prune(Self.asOf)
        #expect(result.status == 0, "\(result.stderr)")
        let rows = Self.byPath(records)
        #expect(rows["renew-adhoc-old.mobileprovision"]?["action"] as? String == "would-trash")
        #expect((rows["renew-adhoc-old.mobileprovision"]?["reason"] as? String)?.hasPrefix("superseded by 4AA98B40") == true)
        #expect(rows["renew-wildcard-old.mobileprovision"]?["action"] as? String == "would-trash")
        // Expired, but the newest (only) profile of its app id: kept, and said why.
        #expect(rows["cert-expires-first.mobileprovision"]?["action"] as? String == "kept")
        #expect(rows["renew-adhoc-new.mobileprovision"] == nil)
        #expect(!records.contains { ($0["path"] as? String)?.contains(".app/") == true }, "never a profile inside a build")
        #expect(setup.exists("renew-adhoc-old.mobileprovision") && setup.exists("renew-wildcard-old.mobileprovision"))
        #expect(try setup.removedUUIDs().isEmpty)
        // --expired alone: the superseded-but-valid ones are not listed.
        let (_, expiredOnly) = try setup.prune(Self.asOf + ["--expired"])
        #expect(expiredOnly.allSatisfy { ($0["reason"] as? String) == "expired" })
        #expect(Self.byPath(expiredOnly)["renew-adhoc-old.mobileprovision"] == nil)
    }

    /// Issue 52 §8: `--include-newest` (fastlane's `sigh manage -e`) also takes an expired profile
    /// that is the newest of its app id; the catalogue keeps it, as removed.
    @Test func includeNewestTakesTheNewestExpiredProfileToo() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.folder) }
        let (_, kept) = try setup.prune(Self.asOf + ["--expired"])
        #expect(Self.byPath(kept)["cert-expires-first.mobileprovision"]?["action"] as? String == "kept")
        let (result, records) = try setup.prune(Self.asOf + ["--expired", "--include-newest", "--delete"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.byPath(records)["cert-expires-first.mobileprovision"]?["action"] as? String == "deleted", "\(records)")
        #expect(!setup.exists("cert-expires-first.mobileprovision"))
        let history = try CatalogProcess.run(["profiles", "--removed", "--db", setup.db, "--json"])
        #expect(history.stdout.contains("B426B646-3C57-48D1-AA9E-D2ACBAFBB8C6"), "the catalogue keeps what was pruned")
        // Only with --expired: a renewal never supersedes the newest profile.
        #expect(try setup.prune(Self.asOf + ["--superseded", "--include-newest"]).0.status == 64)
    }

    @Test func applyMovesToTheTrashAndRecordsTheRemoval() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.folder) }
        let (result, records) = try setup.prune(Self.asOf + ["--superseded", "--apply"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(records.filter { $0["action"] as? String == "trashed" }.count == 2)
        #expect(!setup.exists("renew-adhoc-old.mobileprovision") && !setup.exists("renew-wildcard-old.mobileprovision"))
        let moved = records.compactMap { $0["message"] as? String }.filter { $0.hasPrefix("moved to ") }
        #expect(moved.count == 2 && moved.allSatisfy { $0.hasPrefix("moved to " + setup.trash + "/files/") }, "\(moved)")
        #expect(FileManager.default.fileExists(atPath: setup.trash + "/files/renew-adhoc-old.mobileprovision"))
        let info = try String(contentsOfFile: setup.trash + "/info/renew-adhoc-old.mobileprovision.trashinfo", encoding: .utf8)
        #expect(info.hasPrefix("[Trash Info]\nPath=\(setup.tree)/renew-adhoc-old.mobileprovision\nDeletionDate="))
        #expect(try setup.removedUUIDs() == ["44C6C3D6-6720-46AD-AD64-9FC192DFFA1E", "91B8EB25-2D8A-427D-AB52-082426516FFF"])
        #expect(FileManager.default.fileExists(atPath: setup.tree + "/Example.app/embedded.mobileprovision"))
        // A second run finds nothing more to do, and an ingest agrees with what prune recorded.
        #expect(try setup.prune(Self.asOf + ["--superseded"]).1.isEmpty)
        try setup.ingest()
        #expect(try setup.removedUUIDs().count == 2)
    }

    /// Tests name the trash with `CATALOG_TEST_TRASH` (debug builds only: `ReleaseBuildTests`), on
    /// every platform; nothing goes to the trash under HOME.
    @Test func theTrashATestNamesIsTheOneUsed() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.folder) }
        let named = setup.folder + "/named-trash"
        let (result, records) = try setup.prune(Self.asOf + ["--superseded", "--apply"],
                                                environment: ["CATALOG_TEST_TRASH": named])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(records.filter { $0["action"] as? String == "trashed" }.count == 2)
        #expect(FileManager.default.fileExists(atPath: named + "/files/renew-adhoc-old.mobileprovision"))
        #expect(FileManager.default.fileExists(atPath: named + "/info/renew-wildcard-old.mobileprovision.trashinfo"))
        #expect(!FileManager.default.fileExists(atPath: setup.trash))
    }

    #if os(macOS)
    /// The system's own trash call, once, in process: the file is where it says, in a `.Trash`
    /// folder, and is removed from there at once (the real trash of whoever runs the tests).
    @Test func theSystemTrashCallMovesAFileIntoATrashFolder() throws {
        let scratch = try Scratch()
        let folder = scratch.path
        let file = folder + "/old.mobileprovision"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let moved = try Trash.move(file, environment: [:])
        defer { try? FileManager.default.removeItem(atPath: moved) }
        #expect(moved.contains("/.Trash"), "\(moved)")
        #expect(FileManager.default.fileExists(atPath: moved) && !FileManager.default.fileExists(atPath: file))
    }
    #endif

    @Test func deleteDeletesAndOnlyUnderTheGivenRoots() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.folder) }
        // A second catalogued folder with its own superseded profile, not named to prune.
        let other = setup.folder + "/other"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        for name in ["renew-adhoc-old", "renew-adhoc-new"] {
            try FileManager.default.copyItem(atPath: CatalogProcess.fixtures + "/renewals/\(name).mobileprovision",
                                             toPath: other + "/\(name).mobileprovision")
        }
        #expect(try CatalogProcess.run(["ingest", setup.tree, other, "--db", setup.db, "--quiet"]).status == 0)
        let (result, records) = try setup.prune(Self.asOf + ["--delete"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(records.filter { $0["action"] as? String == "deleted" }.count == 2)
        #expect(records.allSatisfy { ($0["path"] as? String)?.hasPrefix(setup.tree + "/") == true })
        #expect(!setup.exists("renew-adhoc-old.mobileprovision"))
        #expect(FileManager.default.fileExists(atPath: other + "/renew-adhoc-old.mobileprovision"), "outside the roots: untouched")
        #expect(!FileManager.default.fileExists(atPath: setup.trash), "--delete does not trash")
        #expect(try setup.prune(Self.asOf + ["--apply", "--delete"]).0.status == 64)
    }

    @Test func aFileChangedSinceItWasCataloguedIsKept() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(atPath: setup.folder) }
        let path = setup.tree + "/renew-adhoc-old.mobileprovision"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.append(0x0A)
        try bytes.write(to: URL(fileURLWithPath: path))
        let (result, records) = try setup.prune(Self.asOf + ["--apply"])
        #expect(result.status == 0, "\(result.stderr)")
        let row = Self.byPath(records)["renew-adhoc-old.mobileprovision"]
        #expect(row?["action"] as? String == "kept")
        #expect((row?["message"] as? String)?.contains("changed since it was catalogued") == true)
        #expect(setup.exists("renew-adhoc-old.mobileprovision"))
    }

    /// Tests run as root, whom folder modes do not stop: the prune runs as an unprivileged user
    /// (through setpriv) against a folder it may read but not change.
    @Test(.enabled(if: getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                   "needs a non-root user, or setpriv to become one"))
    func aReadOnlyFolderFailsThatFileAndKeepsItsRecord() throws {
        let setup = try Setup()
        defer {
            chmod(setup.tree, 0o755)
            try? FileManager.default.removeItem(atPath: setup.folder)
        }
        let nobody: uid_t = 65_534
        if getuid() == 0 {
            // The unprivileged user owns the catalogue and its home, but not the tree.
            for path in [setup.folder, setup.home, setup.db] { chown(path, nobody, gid_t(nobody)) }
            chmod(setup.folder, 0o755)
        }
        chmod(setup.tree, 0o555)
        let prefix = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let process = Process()
        process.executableURL = URL(fileURLWithPath: prefix.first ?? CatalogProcess.executable)
        process.arguments = Array(prefix.dropFirst()) + (prefix.isEmpty ? [] : [CatalogProcess.executable])
            + ["prune", setup.tree, "--db", setup.db, "--json", "--apply"] + Self.asOf
        process.environment = setup.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1, "\(stderr)")
        #expect(stderr.contains("renew-adhoc-old.mobileprovision: not pruned"))
        let records = (try? JSONSerialization.jsonObject(with: stdout) as? [[String: Any]]) ?? []
        #expect(Self.byPath(records)["renew-adhoc-old.mobileprovision"]?["action"] as? String == "failed")
        #expect(setup.exists("renew-adhoc-old.mobileprovision"))
        #expect(try setup.removedUUIDs().isEmpty, "nothing recorded as removed that was not")
    }
}
