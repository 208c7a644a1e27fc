import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogStore

/// Issue "reliability": a read-only, corrupt or too-new catalogue is refused with a clear message
/// and left byte-for-byte alone; new catalogues are private (0600), existing modes are kept.
@Suite(.timeLimit(.minutes(10))) struct CatalogueFileTests {
    private func makeCatalogue(_ scratch: Scratch) throws -> (tree: String, db: String) {
        let tree = try scratch.copyFixtures("profiles", to: "tree")
        let db = scratch.file("catalog.sqlite")
        try ingest([tree], db: db)
        return (tree, db)
    }

    // MARK: Read-only

    @Test func aReadOnlyOpenRefusesWrites() throws {
        let scratch = try Scratch()
        let (_, db) = try makeCatalogue(scratch)
        let before = try readBytes(db)
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        #expect(connection.isReadOnly)
        #expect(try connection.count("SELECT count(*) AS n FROM profiles") > 0)
        #expect {
            try connection.execute("DELETE FROM profiles")
        } throws: { error in
            (error as? SQLiteError)?.primaryCode == SQLiteError.readOnly
        }
        #expect {
            try connection.transaction { try connection.execute("UPDATE profiles SET name = 'x'") }
        } throws: { error in
            (error as? SQLiteError)?.primaryCode == SQLiteError.readOnly
        }
        #expect(try readBytes(db) == before)
    }

    /// `chmod 0444`: as root the mode does not stop writes, so the binary runs as nobody then.
    @Test(.enabled(if: Unprivileged.isAvailable, "needs a non-root user or setpriv"))
    func theCLIRefusesAReadOnlyCatalogue() throws {
        let scratch = try Scratch()
        let (tree, db) = try makeCatalogue(scratch)
        try scratch.copyFixtures("bundles", to: "tree/bundles")
        try Unprivileged.open(scratch.path)
        chmod(db, 0o444)
        let before = try readBytes(db)
        let result = try Unprivileged.run(["ingest", tree, "--db", db, "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("read-only"), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
        #expect(try readBytes(db) == before)
        #expect(try permissions(of: db) == 0o444)
    }

    /// A writable file in a folder that is not: SQLite cannot create its journal, and the message
    /// says it is the folder. (As root modes do not bite, the binary runs as nobody then.)
    @Test(.enabled(if: Unprivileged.isAvailable, "needs a non-root user or setpriv"))
    func theCLISaysWhenOnlyTheCataloguesFolderIsReadOnly() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("profiles", to: "tree")
        let folder = scratch.file("catalogue")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let db = folder + "/catalog.sqlite"
        try ingest([tree], db: db)
        try scratch.copyFixtures("bundles", to: "tree/bundles")
        try Unprivileged.open(scratch.path)
        defer { chmod(folder, 0o755) }
        chmod(db, 0o666)
        chmod(folder, 0o555)
        let before = try readBytes(db)
        let result = try Unprivileged.run(["ingest", tree, "--db", db, "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderr == "error: cannot write to \(db): the file is writable but its folder \(folder) is read-only, "
                + "and SQLite creates its journal there\n", "\(result.stderr)")
        #expect(try readBytes(db) == before)
        // The file itself read-only is said as before.
        chmod(folder, 0o755)
        chmod(db, 0o444)
        let file = try Unprivileged.run(["ingest", tree, "--db", db, "--quiet"])
        #expect(file.status == 1)
        #expect(file.stderr == "error: cannot write to \(db): it is read-only\n", "\(file.stderr)")
    }

    // MARK: Corrupt and foreign files

    @Test(.enabled(if: CatalogBinary.isAvailable, "the catalog binary was not found (run `swift build`, or set CATALOG_BIN)"))
    func aCorruptFileIsRefusedAndLeftAlone() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("profiles", to: "tree")
        var random = SeededRandom(seed: 42)
        var candidates: [(String, [UInt8])] = []
        candidates.append(("random", (0..<8192).map { _ in UInt8.random(in: 0...255, using: &random) }))
        // A SQLite header followed by garbage.
        candidates.append(("header", Array("SQLite format 3\0".utf8)
            + (0..<8176).map { _ in UInt8.random(in: 0...255, using: &random) }))
        candidates.append(("text", Array(String(repeating: "not a database\n", count: 300).utf8)))
        for (name, bytes) in candidates {
            let db = try scratch.write("\(name).sqlite", bytes)
            let result = try CatalogBinary.run(["ingest", tree, "--db", db, "--quiet"])
            #expect(result.status == 1, "\(name): \(result.stderr)")
            #expect(result.stderr.hasPrefix("error: "), "\(name): \(result.stderr)")
            #expect(result.stderr.contains("not a SQLite database") || result.stderr.contains("malformed"),
                    "\(name): \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"))
            #expect(try readBytes(db) == bytes, "\(name) was modified")
            #expect(!FileManager.default.fileExists(atPath: db + "-wal"), "\(name): a WAL was left beside it")
        }
    }

    @Test(.enabled(if: CatalogBinary.isAvailable, "the catalog binary was not found (run `swift build`, or set CATALOG_BIN)"))
    func aCatalogueFromANewerBinaryIsRefusedAndLeftAlone() throws {
        let scratch = try Scratch()
        let (tree, db) = try makeCatalogue(scratch)
        do {
            let connection = try Connection.openCatalogue(path: db)
            try connection.execute("INSERT INTO schema_migrations (id, name, applied_at) VALUES (9999, 'future', '2030-01-01T00:00:00Z')")
        }
        let before = try readBytes(db)
        let result = try CatalogBinary.run(["ingest", tree, "--db", db, "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("newer"), "\(result.stderr)")
        #expect(try readBytes(db) == before)
    }

    @Test(.enabled(if: CatalogBinary.isAvailable, "the catalog binary was not found (run `swift build`, or set CATALOG_BIN)"))
    func someoneElsesDatabaseIsRefused() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("profiles", to: "tree")
        let db = scratch.file("other.sqlite")
        do {
            let connection = try Connection(path: db, wal: false)
            try connection.execute("CREATE TABLE notes (body TEXT)")
            try connection.execute("INSERT INTO notes VALUES ('mine')")
        }
        let before = try readBytes(db)
        let result = try CatalogBinary.run(["ingest", tree, "--db", db, "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("not a catalogue"), "\(result.stderr)")
        #expect(try readBytes(db) == before)
    }

    // MARK: File modes

    @Test(.enabled(if: CatalogBinary.isAvailable, "the catalog binary was not found (run `swift build`, or set CATALOG_BIN)"))
    func aNewCatalogueIsPrivateAndAnExistingModeIsKept() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("profiles", to: "tree")
        let db = scratch.file("new/catalog.sqlite")
        let first = try CatalogBinary.run(["ingest", tree, "--db", db, "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try permissions(of: db) == 0o600)

        // In-process creation too.
        let other = scratch.file("inproc.sqlite")
        try ingest([tree], db: other)
        #expect(try permissions(of: other) == 0o600)

        chmod(db, 0o640)
        try scratch.copyFixtures("bundles", to: "tree/bundles")
        let second = try CatalogBinary.run(["ingest", tree, "--db", db, "--quiet"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try permissions(of: db) == 0o640)
    }
}
