import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogStore

/// Issue "reliability": kill the ingester (SIGKILL) at 20 moments of a run; after each the file passes
/// `PRAGMA integrity_check`, holds no 'running' run, and the next run produces the same catalogue as
/// an uninterrupted one.
@Suite(.timeLimit(.minutes(10)), .serialized, .enabled(if: CatalogBinary.isAvailable, "the catalog binary was not found (run `swift build`, or set CATALOG_BIN)"))
struct KillTests {
    /// Copies and variants of the generated fixtures (well over 50 files with nothing beside the
    /// checkout), plus the real corpus when present, copied so every run sees the same paths.
    private func makeTree(_ scratch: Scratch) throws -> String {
        let tree = try scratch.makeFixtureTree(copies: 2, profileVariants: 20)
        if let corpus = IngestPaths.realCorpus { try scratch.copy(corpus + "/tree", to: "tree/real-corpus") }
        return tree
    }

    private func checkAfterKill(_ db: String, _ label: String) throws {
        guard FileManager.default.fileExists(atPath: db) else { return }
        #expect(try integrityCheck(db) == "ok", "\(label): integrity")
        let connection = try Connection(path: db, readOnly: false, wal: false)  // may recover, as an ingest would
        if let running = try? connection.count("SELECT count(*) AS n FROM ingest_runs WHERE status = 'running'") {
            #expect(running == 0, "\(label): a run was left 'running'")
        }
    }

    @Test func killedAfterNWritesThenRerunEqualsACleanRun() throws {
        let scratch = try Scratch()
        let tree = try makeTree(scratch)
        let clean = scratch.file("clean.sqlite")
        let first = try CatalogBinary.run(["ingest", tree, "--db", clean, "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        let expected = try canonicalDump(clean)
        // Every candidate written is one write (and one row of the incremental index).
        let total = try Connection(path: clean, readOnly: true, wal: false).count("SELECT count(*) AS n FROM files")
        #expect(total > 50)

        var random = SeededRandom(seed: 0xC0FFEE)
        for round in 0..<20 {
            let writes = Int.random(in: 1...total, using: &random)
            let label = "round \(round), kill after \(writes) of \(total) writes"
            let db = scratch.file("killed-\(round).sqlite")
            // Odd rounds kill a --full run over an already complete catalogue: it must survive intact.
            let populated = round % 2 == 1
            if populated { try FileManager.default.copyItem(atPath: clean, toPath: db) }
            var arguments = ["ingest", tree, "--db", db, "--quiet"]
            if populated { arguments.append("--full") }
            let killed = try CatalogBinary.run(arguments, environment: ["CATALOG_TEST_KILL_AFTER_WRITES": String(writes)])
            #expect(killed.signalled && killed.status == SIGKILL, "\(label): not killed (status \(killed.status))")
            try checkAfterKill(db, label)
            if populated { #expect(try canonicalDump(db) == expected, "\(label): the killed run changed the catalogue") }

            let rerun = try CatalogBinary.run(["ingest", tree, "--db", db, "--quiet"])
            #expect(rerun.status == 0, "\(label): \(rerun.stderr)")
            #expect(try integrityCheck(db) == "ok")
            #expect(try canonicalDump(db) == expected, "\(label): catalogue differs from a clean run")
        }
    }

    @Test func externalSIGKILLAtRandomMomentsThenRerunEqualsACleanRun() throws {
        let scratch = try Scratch()
        let tree = try makeTree(scratch)
        let clean = scratch.file("clean.sqlite")
        #expect(try CatalogBinary.run(["ingest", tree, "--db", clean, "--quiet"]).status == 0)
        let expected = try canonicalDump(clean)

        var random = SeededRandom(seed: 0x5EED)
        for round in 0..<6 {
            let delay = Int.random(in: 0...80_000, using: &random)  // microseconds
            let label = "round \(round), SIGKILL after \(delay) µs"
            let db = scratch.file("external-\(round).sqlite")
            let child = try CatalogBinary.Child(["ingest", tree, "--db", db, "--quiet"])
            usleep(useconds_t(delay))
            kill(child.pid, SIGKILL)
            _ = child.wait()
            try checkAfterKill(db, label)

            let rerun = try CatalogBinary.run(["ingest", tree, "--db", db, "--quiet"])
            #expect(rerun.status == 0, "\(label): \(rerun.stderr)")
            #expect(try integrityCheck(db) == "ok")
            #expect(try canonicalDump(db) == expected, "\(label): catalogue differs from a clean run")
        }
    }
}
