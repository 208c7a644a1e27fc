import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// A catalogue's first ingest runs in rollback-journal mode, so each page is written once rather
/// than to the WAL and again at the checkpoint (issue 15). Killed, it leaves a journal that the next
/// opener rolls back, leaving an empty, migrated catalogue; the rerun equals a clean run and, like
/// every later write, runs in WAL mode.
@Suite(.timeLimit(.minutes(10)), .serialized, .enabled(if: CatalogBinary.isAvailable, "the catalog binary was not found (run `swift build`, or set CATALOG_BIN)"))
struct FirstIngestJournalTests {
    private func listing(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    @Test func aKilledFirstIngestLeavesAJournalAndTheRerunEqualsACleanRun() throws {
        let scratch = try Scratch()
        let tree = try scratch.makeFixtureTree(copies: 1, profileVariants: 10)
        let clean = scratch.file("clean/catalog.sqlite")
        let first = try CatalogBinary.run(["ingest", tree, "--db", clean, "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try listing(scratch.file("clean")) == ["catalog.sqlite"])
        let expected = try canonicalDump(clean)

        let folder = scratch.file("killed")
        let db = folder + "/catalog.sqlite"
        let killed = try CatalogBinary.run(["ingest", tree, "--db", db, "--quiet"],
                                           environment: ["CATALOG_TEST_KILL_AFTER_WRITES": "25"])
        #expect(killed.signalled && killed.status == SIGKILL, "not killed (status \(killed.status))")
        // No WAL: the run wrote through a rollback journal, which is still there.
        #expect(try listing(folder) == ["catalog.sqlite", "catalog.sqlite-journal"])
        #expect(Connection.headerSaysWAL(db) == false)
        #expect(try integrityCheck(db) == "ok")  // opening it rolls the journal back
        let rolledBack = try Connection(path: db, readOnly: true, wal: false)
        #expect(try rolledBack.count("SELECT count(*) AS n FROM profiles") == 0)
        #expect(try rolledBack.count("SELECT count(*) AS n FROM ingest_runs") == 0)
        #expect(try Migrator().currentVersion(of: rolledBack) == Migration.all.last?.id)

        // The catalogue exists now, so the next run writes through the WAL, like every later run.
        let second = try CatalogBinary.run(["ingest", tree, "--db", db, "--quiet"],
                                           environment: ["CATALOG_TEST_KILL_AFTER_WRITES": "5"])
        #expect(second.signalled && second.status == SIGKILL, "not killed (status \(second.status))")
        #expect(try listing(folder) == ["catalog.sqlite", "catalog.sqlite-shm", "catalog.sqlite-wal"])
        let rerun = try CatalogBinary.run(["ingest", tree, "--db", db, "--quiet"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try listing(folder) == ["catalog.sqlite"])
        #expect(try canonicalDump(db) == expected)
    }

    /// A second ingest started while a new catalogue's first ingest runs waits for it, as it waits
    /// for any other ingest (up to 120 s), rather than giving up when the file's switch to WAL mode
    /// finds it locked; then it runs, into the catalogue the first one left.
    @Test func aSecondIngestWaitsForAFirstIngestToFinish() throws {
        let scratch = try Scratch()
        let tree = try scratch.makeFixtureTree(copies: 1, profileVariants: 10)
        let db = scratch.file("both/catalog.sqlite")
        let first = try CatalogBinary.Child(["ingest", tree, "--db", db, "--quiet"],
                                            environment: ["CATALOG_TEST_STOP_AFTER_WRITES": "5"])
        guard waitUntilStopped(first.pid) else {
            first.process.terminate()
            Issue.record("the first ingest did not stop after 5 writes: \(first.wait().stderr)")
            return
        }
        let second = try CatalogBinary.Child(["ingest", tree, "--db", db, "--quiet"])
        // Longer than a connection's default busy timeout (10 s), which the switch used to get.
        sleep(11)
        #expect(second.process.isRunning, "the second ingest gave up while the first held the catalogue")
        kill(first.pid, SIGCONT)
        let firstResult = first.wait()
        #expect(firstResult.status == 0, "\(firstResult.stderr)")
        let secondResult = second.wait()
        #expect(secondResult.status == 0, "\(secondResult.stderr)")
        #expect(try Connection(path: db, readOnly: true, wal: false)
                    .count("SELECT count(*) AS n FROM ingest_runs WHERE status = 'ok'") == 2)
    }
}
