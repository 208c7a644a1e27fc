import Foundation
import Testing
@testable import CatalogIngest
@testable import CatalogStore
import CatalogTestSupport

/// Issue "reliability": what a real disk throws at the walker — symlink loops, a link to `/`,
/// unreadable folders, names that are not UTF-8 or hold a newline, files that vanish mid-run and a
/// huge sparse file — is recorded as a problem or skipped, never a crash or a hang.
@Suite(.timeLimit(.minutes(10))) struct HostileFileSystemTests {
    private let profile = IngestPaths.fixtures + "/profiles/ios-development.mobileprovision"

    @Test func symlinkLoopsAndALinkToRootAreNotWalked() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("profiles", to: "tree/profiles")
        _ = tree
        let root = scratch.file("tree")
        // a → b, b → a (each a link to the other), a folder holding a link to itself, and a link to /.
        #expect(symlink(root + "/b", root + "/a") == 0)
        #expect(symlink(root + "/a", root + "/b") == 0)
        try FileManager.default.createDirectory(atPath: root + "/loop", withIntermediateDirectories: true)
        #expect(symlink("..", root + "/loop/up") == 0)
        #expect(symlink(".", root + "/loop/self") == 0)
        #expect(symlink("/", root + "/everything") == 0)
        // A link to a profile file is followed (it is a file, not a folder).
        #expect(symlink(root + "/profiles/wildcard.mobileprovision", root + "/linked.mobileprovision") == 0)

        let db = scratch.file("catalog.sqlite")
        let started = Date()
        let report = try ingest([root], db: db)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(report.errors.isEmpty, "\(report.errors)")
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        #expect(try connection.count("SELECT count(*) AS n FROM files WHERE path NOT LIKE ? ESCAPE '\\'",
                                     [.text(root + "/%")]) == 0)
        #expect(try connection.count("SELECT count(*) AS n FROM files WHERE path LIKE '%/everything/%'") == 0)
        #expect(try connection.count("SELECT count(*) AS n FROM profile_locations WHERE path = ?",
                                     [.text(root + "/linked.mobileprovision")]) == 1)
        // The walker reports the folder links it skipped.
        var walker = TreeWalker()
        var visited = 0
        walker.walk(root) { _ in visited += 1 }
        #expect(walker.skippedSymlinks >= 3)
        #expect(visited == report.filesScanned)
    }

    /// Root reads mode-000 folders, so the binary runs as nobody (through setpriv) there.
    @Test(.enabled(if: Unprivileged.isAvailable, "needs a non-root user or setpriv"))
    func anUnreadableFolderIsAProblemAndItsContentsAreNotMarkedRemoved() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("profiles", to: "tree")
        try FileManager.default.createDirectory(atPath: tree + "/locked", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: tree + "/ios-development.mobileprovision",
                                         toPath: tree + "/locked/ios-development.mobileprovision")
        try Unprivileged.open(scratch.path)
        let db = scratch.file("catalog.sqlite")
        let first = try Unprivileged.run(["ingest", tree, "--db", db, "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")

        chmod(tree + "/locked", 0)
        let second = try Unprivileged.run(["ingest", tree, "--db", db])
        chmod(tree + "/locked", 0o755)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("\(tree)/locked: cannot read folder"), "\(second.stderr)")
        #expect(second.stderr.contains(" 0 removed"), "\(second.stderr)")
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        #expect(try connection.strings("SELECT removed_at IS NULL FROM profile_locations WHERE path = ?",
                                       [.text(tree + "/locked/ios-development.mobileprovision")]) == ["1"])
        #expect(try connection.count("SELECT count(*) AS n FROM ingest_errors WHERE path = ?",
                                     [.text(tree + "/locked")]) == 1)
        // Readable again, the next run finds it unchanged.
        let third = try Unprivileged.run(["ingest", tree, "--db", db])
        #expect(third.status == 0)
        #expect(third.stderr.contains("0 errors"), "\(third.stderr)")
    }

    @Test func aNonUTF8NameIsRecordedAsAProblem() throws {
        let scratch = try Scratch()
        try scratch.copy(profile, to: "tree/good.mobileprovision")
        let root = scratch.file("tree")
        // "bad-\xFF.mobileprovision", created from raw bytes.
        var name = Array((root + "/bad-").utf8).map { CChar(bitPattern: $0) }
        name.append(CChar(bitPattern: 0xFF))
        name += Array(".mobileprovision".utf8).map { CChar(bitPattern: $0) }
        name.append(0)
        let fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        let openError = errno
        #if os(macOS)
        // APFS and HFS+ store names as UTF-8 and refuse any other bytes: `open` fails with EILSEQ,
        // so such a name never reaches the walker on a Mac's own disks (an SMB or exFAT volume may
        // still hold one; the walker's check below covers it there). What is checked here is that
        // refusal, and that the rest of the folder is catalogued without a problem.
        #expect(fd == -1 && openError == EILSEQ, "open: fd \(fd), errno \(openError)")
        let refused = try ingest([root], db: scratch.file("catalog.sqlite"))
        #expect(refused.errors.isEmpty, "\(refused.errors)")
        #expect(refused.profilesNew == 1)
        #else
        #expect(fd >= 0, "open: errno \(openError)")
        let bytes = try readBytes(profile)
        _ = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
        close(fd)

        let db = scratch.file("catalog.sqlite")
        let report = try ingest([root], db: db)
        #expect(report.errors.contains { $0.path == root && $0.message.contains("UTF-8") }, "\(report.errors)")
        #expect(report.profilesNew == 1)
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        #expect(try connection.count("SELECT count(*) AS n FROM ingest_errors WHERE path = ? AND message LIKE '%UTF-8%'",
                                     [.text(root)]) == 1)
        // The problem does not make the rest of the folder look removed on the next run.
        let second = try ingest([root], db: db)
        #expect(second.profilesRemoved == 0)
        #endif
    }

    @Test func aNameWithANewlineIsCatalogued() throws {
        let scratch = try Scratch()
        let path = try scratch.copy(profile, to: "tree/line one\nline two.mobileprovision")
        let folder = try scratch.copy(IngestPaths.fixtures + "/bundles/ExampleMac.app", to: "tree/new\nline/Mac.app")
        let db = scratch.file("catalog.sqlite")
        let report = try ingest([scratch.file("tree")], db: db)
        #expect(report.errors.isEmpty, "\(report.errors)")
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        #expect(try connection.strings("SELECT path FROM profile_locations WHERE container_kind = 'standalone'") == [path])
        #expect(try connection.strings("SELECT path FROM builds") == [folder])
        // And it stays unchanged on the next run (the index keys the exact path).
        let second = try ingest([scratch.file("tree")], db: db)
        #expect(second.filesDecoded == 0)
        #expect(second.profilesRemoved == 0 && second.buildsRemoved == 0)
    }

    @Test func aFileThatVanishesBetweenWalkAndReadIsAProblemNotACrash() throws {
        let scratch = try Scratch()
        let first = try scratch.copy(profile, to: "tree/a.mobileprovision")
        try scratch.copy(IngestPaths.fixtures + "/profiles/wildcard.mobileprovision", to: "tree/b.mobileprovision")
        let app = try scratch.copy(IngestPaths.fixtures + "/bundles/ExampleMac.app", to: "tree/c/Mac.app")

        // The walker saw them; then they go.
        var walker = TreeWalker()
        var candidates: [Candidate] = []
        walker.walk(scratch.file("tree")) { candidates.append($0) }
        #expect(candidates.map(\.path).contains(first))

        // In a run: the first progress report comes right after the first candidate was queued,
        // before anything is read, so deleting there is "between walk and read".
        let db = scratch.file("catalog.sqlite")
        nonisolated(unsafe) var deleted = false
        let report = try ingest([scratch.file("tree")], db: db) { _ in
            guard !deleted else { return }
            deleted = true
            unlink(first)
            try? FileManager.default.removeItem(atPath: app)
        }
        #expect(deleted)
        #expect(report.errors.contains { $0.path == first }, "\(report.errors)")
        #expect(report.profilesNew == 1)  // b
        // The next run forgets the vanished file without complaint.
        let second = try ingest([scratch.file("tree")], db: db)
        #expect(second.errors.isEmpty, "\(second.errors)")
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        #expect(try connection.count("SELECT count(*) AS n FROM files WHERE path = ?", [.text(first)]) == 0)
    }

    @Test func aHugeSparseFileIsTooLargeAndCostsNothing() throws {
        let scratch = try Scratch()
        try scratch.copy(profile, to: "tree/good.mobileprovision")
        var huge: [String] = []
        for name in ["big.mobileprovision", "big.ipa", "Info.plist"] {
            let path = scratch.file("tree/" + name)
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            #expect(fd >= 0)
            #expect(ftruncate(fd, 20 << 30) == 0)  // 20 GB, sparse
            close(fd)
            huge.append(path)
        }
        let db = scratch.file("catalog.sqlite")
        let started = Date()
        let report = try ingest([scratch.file("tree")], db: db)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(report.profilesNew == 1)
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        let messages = try connection.strings("SELECT message FROM ingest_errors WHERE path = ?", [.text(huge[0])])
        #expect(messages.count == 1)
        #expect(messages.first?.contains("exceeds") == true, "\(messages)")
        // The .ipa and Info.plist are refused too, whatever the words.
        #expect(try connection.count("SELECT count(*) AS n FROM builds") == 0)
        #expect(try connection.count("SELECT count(*) AS n FROM files WHERE path = ? AND status = 'error'",
                                     [.text(huge[1])]) == 1)
    }
}
