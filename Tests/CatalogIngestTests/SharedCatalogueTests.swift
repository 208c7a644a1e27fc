import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogStore

/// Issue 9 §1: a teammate who may only read the catalogue and its folder can run every query
/// command, with the exact modes the README recommends; such a reader never leaves a `-wal`/`-shm`
/// file; and what it sees while an ingest runs is the catalogue as the last finished run left it.
///
/// Real user ids throughout: the owner who ingests and the reader are both unprivileged uids reached
/// through `setpriv` (tests run as root, and root ignores file modes).
@Suite(.timeLimit(.minutes(10)), .serialized, .enabled(if: Team.isAvailable, "needs root and /usr/bin/setpriv to run the owner and the reader as unprivileged uids"))
struct SharedCatalogueTests {
    /// A shared catalogue: folder `team/` owned by the owner and the team group, ingested by the owner.
    private struct Setup {
        let scratch: Scratch
        let tree: String
        let folder: String
        let db: String
        let team: Team
    }

    /// The owner ingests `fixtures` (a subfolder of Fixtures/, or all of it) into `team/catalog.sqlite`
    /// in a folder with `folderMode`, then sets the file's group and `fileMode` as the README says.
    private func makeShared(fixtures: String = "", folderMode: mode_t, fileMode: mode_t) throws -> Setup {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures(fixtures, to: "tree")
        let team = Team()
        let folder = scratch.file("team")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        #expect(chown(folder, team.owner, team.group) == 0)
        #expect(chmod(folder, folderMode) == 0)
        let db = folder + "/catalog.sqlite"
        let result = try team.asOwner(["ingest", tree, "--db", db, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("note:"), "the ingest did not leave WAL mode: \(result.stderr)")
        #expect(chown(db, team.owner, team.group) == 0)
        #expect(chmod(db, fileMode) == 0)
        return Setup(scratch: scratch, tree: tree, folder: folder, db: db, team: team)
    }

    private func listing(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    /// Every query command, with arguments that make it print something from the fixtures.
    private func queryCommands(_ db: String) throws -> [[String]] {
        let connection = try Connection(path: db, readOnly: true, wal: false)
        let uuid = try #require(try connection.strings("SELECT uuid FROM profiles ORDER BY uuid LIMIT 1").first)
        let udid = try #require(try connection.strings("SELECT udid FROM devices ORDER BY udid LIMIT 1").first)
        let bundle = try #require(try connection.strings(
            "SELECT bundle_id FROM builds WHERE bundle_id IS NOT NULL ORDER BY bundle_id LIMIT 1").first)
        let asOf = ["--as-of", "2026-12-01T00:00:00Z"]
        let commands: [[String]] = [
            ["profiles"] + asOf, ["expiring", "--days", "36500"] + asOf, ["show", uuid] + asOf,
            ["devices"] + asOf, ["devices", udid] + asOf, ["certificates"] + asOf, ["builds"], ["builds", bundle],
            ["versions", bundle], ["errors"], ["runs"], ["stats"],
        ]
        return commands.map { $0 + ["--db", db, "--format", "json"] }
    }

    /// Runs every query as the owner and as `reader`; the reader must get the owner's exact output
    /// and leave the folder as it found it.
    private func everyQueryWorks(_ setup: Setup, reader: (gid: gid_t, label: String)) throws {
        let before = try listing(setup.folder)
        let bytes = try readBytes(setup.db)
        for command in try queryCommands(setup.db) {
            let expected = try setup.team.asOwner(command)
            #expect(expected.status == 0, "owner: \(command): \(expected.stderr)")
            let got = try setup.team.asReader(command, gid: reader.gid)
            #expect(got.status == 0, "\(reader.label): \(command[0]): \(got.stderr)")
            #expect(got.stderr.isEmpty, "\(reader.label): \(command[0]): \(got.stderr)")
            // `stats` says how many seconds ago the last ingest was: that may tick between the two runs.
            func stable(_ text: String) -> String {
                text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("\"age_seconds\"") }
                    .joined(separator: "\n")
            }
            #expect(stable(got.stdout) == stable(expected.stdout), "\(reader.label): \(command[0]) printed something else")
            #expect(!got.stdout.isEmpty)
        }
        #expect(try listing(setup.folder) == before, "\(reader.label) left files beside the catalogue")
        #expect(!before.contains { $0.hasSuffix("-wal") || $0.hasSuffix("-shm") || $0.hasSuffix("-journal") })
        #expect(try readBytes(setup.db) == bytes)
    }

    /// The modes bite: the reader cannot create a file in the folder, and someone outside the group
    /// cannot read the catalogue at all.
    private func modesAreReal(_ setup: Setup, reader: gid_t, outsider: gid_t?) throws {
        let probe = setup.folder + "/probe"
        let touch = try setup.team.asReader(["/usr/bin/touch", probe], gid: reader, binary: false)
        #expect(touch.status != 0, "the reader can write in the folder: the test would prove nothing")
        #expect(!FileManager.default.fileExists(atPath: probe))
        if let outsider {
            let denied = try setup.team.asReader(["stats", "--db", setup.db], gid: outsider)
            #expect(denied.status == 1, "someone outside the group read the catalogue: \(denied.stdout)")
        }
    }

    // MARK: No ingest running

    /// README: `chmod 640 catalog.sqlite` (group = the team) in a `chmod 2750` folder; a member of
    /// the group reads.
    @Test func aGroupMemberQueriesA0640CatalogueInA2750Folder() throws {
        let setup = try makeShared(folderMode: 0o2750, fileMode: 0o640)
        try modesAreReal(setup, reader: setup.team.group, outsider: Team.nobodyGroup)
        try everyQueryWorks(setup, reader: (setup.team.group, "group member"))
    }

    /// The same without the setgid bit on the folder (0750): at rest nothing differs.
    @Test func aGroupMemberQueriesA0640CatalogueInA0750Folder() throws {
        let setup = try makeShared(folderMode: 0o750, fileMode: 0o640)
        try modesAreReal(setup, reader: setup.team.group, outsider: Team.nobodyGroup)
        try everyQueryWorks(setup, reader: (setup.team.group, "group member"))
    }

    /// README: a published copy, `chmod 444` in a `chmod 555` folder; anyone reads.
    @Test func anyoneQueriesA0444CatalogueInA0555Folder() throws {
        let setup = try makeShared(folderMode: 0o755, fileMode: 0o444)
        #expect(chmod(setup.folder, 0o555) == 0)
        try modesAreReal(setup, reader: Team.nobodyGroup, outsider: nil)
        try everyQueryWorks(setup, reader: (Team.nobodyGroup, "other user"))
    }

    // MARK: While an ingest runs

    /// The owner's ingest is stopped (SIGSTOP) in the middle of its one transaction. A group member's
    /// queries succeed and show the catalogue as the previous run left it; the `-wal`/`-shm` files
    /// beside it are the ingest's (owned by the owner), none is added by the reader. When the ingest
    /// resumes and ends, the files are gone and the reader sees the new run.
    @Test func aGroupMemberQueriesWhileAnIngestRuns() throws {
        let setup = try makeShared(fixtures: "profiles", folderMode: 0o2750, fileMode: 0o640)
        let reader = setup.team.group
        let runsBefore = try setup.team.asReader(["runs", "--db", setup.db, "--format", "json"], gid: reader)
        let profilesBefore = try setup.team.asReader(["profiles", "--db", setup.db, "--format", "json"], gid: reader)
        #expect(runsBefore.status == 0 && profilesBefore.status == 0, "\(runsBefore.stderr)")

        // A second run over the whole fixtures tree, which adds builds and more profiles.
        guard let ingest = try ingestStoppedMidway(setup) else { return }
        let during = try listing(setup.folder)
        #expect(during == ["catalog.sqlite", "catalog.sqlite-shm", "catalog.sqlite-wal"], "\(during)")
        for name in during {
            var info = stat()
            #expect(stat(setup.folder + "/" + name, &info) == 0)
            #expect(info.st_uid == setup.team.owner, "\(name) is not the ingest's")
        }
        let runsDuring = try setup.team.asReader(["runs", "--db", setup.db, "--format", "json"], gid: reader)
        let profilesDuring = try setup.team.asReader(["profiles", "--db", setup.db, "--format", "json"], gid: reader)
        #expect(runsDuring.status == 0, "\(runsDuring.stderr)")
        #expect(profilesDuring.status == 0, "\(profilesDuring.stderr)")
        #expect(runsDuring.stdout == runsBefore.stdout, "the reader saw the unfinished run")
        #expect(profilesDuring.stdout == profilesBefore.stdout, "the reader saw half a run")
        #expect(try listing(setup.folder) == during, "the reader added files beside the catalogue")

        kill(ingest.pid, SIGCONT)
        let finished = ingest.wait()
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(!finished.stderr.contains("note:"), "\(finished.stderr)")
        #expect(try listing(setup.folder) == ["catalog.sqlite"])
        let runsAfter = try setup.team.asReader(["runs", "--db", setup.db, "--format", "json"], gid: reader)
        let buildsAfter = try setup.team.asReader(["builds", "--db", setup.db, "--format", "json"], gid: reader)
        #expect(runsAfter.status == 0 && buildsAfter.status == 0, "\(runsAfter.stderr)\(buildsAfter.stderr)")
        #expect(try (CatalogBinaryJSON.array(runsAfter.stdout)).count == 2)
        #expect(try !(CatalogBinaryJSON.array(buildsAfter.stdout)).isEmpty, "the finished run is visible")
        #expect(try listing(setup.folder) == ["catalog.sqlite"])
    }

    /// Without the setgid bit (a 0750 folder) the `-wal`/`-shm` an ingest creates get the owner's own
    /// group, so a group member cannot open them: a query during the run fails with a message that
    /// says why and what to do, adds no file, and works again once the run has ended.
    @Test func withoutSetgidAGroupMemberIsToldWhyDuringAnIngest() throws {
        let setup = try makeShared(fixtures: "profiles", folderMode: 0o750, fileMode: 0o640)
        guard let ingest = try ingestStoppedMidway(setup) else { return }
        let during = try listing(setup.folder)
        let refused = try setup.team.asReader(["profiles", "--db", setup.db], gid: setup.team.group)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("an ingest is running") && refused.stderr.contains("chmod 2750"),
                "\(refused.stderr)")
        #expect(try listing(setup.folder) == during)
        kill(ingest.pid, SIGCONT)
        #expect(ingest.wait().status == 0)
        #expect(try listing(setup.folder) == ["catalog.sqlite"])
        #expect(try setup.team.asReader(["profiles", "--db", setup.db], gid: setup.team.group).status == 0)
    }

    /// A run that dies (SIGKILL) mid-transaction leaves its `-wal`/`-shm`; a group member still reads
    /// the last finished run, and the owner's next ingest clears them.
    @Test func aGroupMemberQueriesAfterAnIngestWasKilled() throws {
        let setup = try makeShared(fixtures: "profiles", folderMode: 0o2750, fileMode: 0o640)
        let reader = setup.team.group
        let before = try setup.team.asReader(["profiles", "--db", setup.db, "--format", "json"], gid: reader)
        let whole = try setup.scratch.copyFixtures(to: "whole")
        let killed = try setup.team.startAsOwner(["ingest", whole, "--db", setup.db, "--quiet"],
                                                 environment: ["CATALOG_TEST_KILL_AFTER_WRITES": "10"]).wait()
        #expect(killed.signalled && killed.status == SIGKILL)
        #expect(try listing(setup.folder) == ["catalog.sqlite", "catalog.sqlite-shm", "catalog.sqlite-wal"])
        let after = try setup.team.asReader(["profiles", "--db", setup.db, "--format", "json"], gid: reader)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stdout == before.stdout)
        let rerun = try setup.team.asOwner(["ingest", whole, "--db", setup.db, "--quiet"])
        #expect(rerun.status == 0 && !rerun.stderr.contains("note:"), "\(rerun.stderr)")
        #expect(try listing(setup.folder) == ["catalog.sqlite"])
        let last = try setup.team.asReader(["stats", "--db", setup.db], gid: reader)
        #expect(last.status == 0, "\(last.stderr)")
    }

    /// `catalog prune --delete` writes the catalogue too: it also ends with the file out of WAL mode,
    /// readable by the group.
    @Test func aPruneThatWritesLeavesTheCatalogueReadable() throws {
        let setup = try makeShared(fixtures: "profiles", folderMode: 0o2750, fileMode: 0o640)
        let prune = try setup.team.asOwner(["prune", "--delete", setup.tree, "--db", setup.db, "--format", "json"])
        #expect(prune.status == 0 || prune.status == 1, "\(prune.stderr)")
        #expect(!prune.stderr.contains("note:"), "\(prune.stderr)")
        #expect(try listing(setup.folder) == ["catalog.sqlite"])
        #expect(Connection.headerSaysWAL(setup.db) == false)
        let read = try setup.team.asReader(["profiles", "--db", setup.db], gid: setup.team.group)
        #expect(read.status == 0, "\(read.stderr)")
    }

    /// A catalogue still in WAL mode with no `-shm` (written by a catalog before this change): the
    /// read-only reader gets a clear message saying what to do, not SQLite's "attempt to write".
    @Test func aCatalogueLeftInWALModeGetsAClearMessage() throws {
        let setup = try makeShared(fixtures: "profiles", folderMode: 0o2750, fileMode: 0o640)
        do {  // As an older catalog left it: WAL in the header, no -wal/-shm once closed.
            let connection = try Connection(path: setup.db, wal: true)
            #expect(try connection.strings("PRAGMA journal_mode") == ["wal"])
        }
        #expect(try listing(setup.folder) == ["catalog.sqlite"])
        let result = try setup.team.asReader(["profiles", "--db", setup.db], gid: setup.team.group)
        #expect(result.status == 1)
        #expect(result.stderr.contains("WAL mode") && result.stderr.contains("catalog ingest"), "\(result.stderr)")
        #expect(try listing(setup.folder) == ["catalog.sqlite"])
        // The owner's next ingest makes it readable again.
        #expect(try setup.team.asOwner(["ingest", setup.tree, "--db", setup.db, "--quiet"]).status == 0)
        #expect(try setup.team.asReader(["profiles", "--db", setup.db], gid: setup.team.group).status == 0)
    }

    /// The owner's ingest of the whole fixtures tree, stopped (SIGSTOP by the test hook) after 10
    /// writes inside its transaction; nil, with the issue recorded, when it never stops.
    private func ingestStoppedMidway(_ setup: Setup) throws -> CatalogBinary.Child? {
        let whole = try setup.scratch.copyFixtures(to: "whole")
        let ingest = try setup.team.startAsOwner(["ingest", whole, "--db", setup.db, "--quiet"],
                                                 environment: ["CATALOG_TEST_STOP_AFTER_WRITES": "10"])
        guard waitUntilStopped(ingest.pid) else {
            ingest.process.terminate()
            Issue.record("the ingest did not stop after 10 writes: \(ingest.wait().stderr)")
            return nil
        }
        return ingest
    }
}

/// The two unprivileged users of these tests: the owner who ingests and the teammate who reads.
struct Team {
    static let setpriv = "/usr/bin/setpriv"
    static var isAvailable: Bool {
        IngestPaths.isRoot && FileManager.default.isExecutableFile(atPath: setpriv) && CatalogBinary.isAvailable
    }
    /// nobody/nogroup: the reader's uid, and its group when it is not in the team.
    static let nobody: uid_t = 65534
    static let nobodyGroup: gid_t = 65534

    /// A uid and a gid no account or group on this machine has.
    let owner: uid_t
    let group: gid_t

    init() {
        var owner: uid_t = 42_000
        while getpwuid(owner) != nil { owner += 1 }
        var group: gid_t = 42_100
        while getgrgid(group) != nil || group == owner { group += 1 }
        self.owner = owner
        self.group = group
    }

    /// The owner runs with its own primary group (as a login would) and the team as a supplementary one.
    private var ownerLauncher: [String] {
        [Self.setpriv, "--reuid=\(owner)", "--regid=\(owner)", "--groups=\(group)"]
    }

    func asOwner(_ arguments: [String]) throws -> CatalogBinary.Result {
        try CatalogBinary.Child(arguments, launcher: ownerLauncher).wait()
    }

    func startAsOwner(_ arguments: [String], environment: [String: String]) throws -> CatalogBinary.Child {
        try CatalogBinary.Child(arguments, environment: environment, launcher: ownerLauncher)
    }

    /// The reader: uid nobody, primary group `gid`, no other group.
    func asReader(_ arguments: [String], gid: gid_t, binary: Bool = true) throws -> CatalogBinary.Result {
        let launcher = [Self.setpriv, "--reuid=\(Self.nobody)", "--regid=\(gid)", "--clear-groups"]
        if binary { return try CatalogBinary.Child(arguments, launcher: launcher).wait() }
        return try CatalogBinary.Child(Array(arguments.dropFirst()), launcher: launcher + [arguments[0]],
                                       omitBinary: true).wait()
    }
}

enum CatalogBinaryJSON {
    static func array(_ text: String) throws -> [Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any] ?? []
    }
}
