import Foundation
import Testing
@testable import CatalogStore
import CatalogTestSupport

/// Issue "reliability": two ingests at once, and readers during an ingest.
@Suite(.timeLimit(.minutes(10)), .serialized, .enabled(if: CatalogBinary.isAvailable, "the catalog binary was not found (run `swift build`, or set CATALOG_BIN)"))
struct ConcurrencyTests {
    @Test func twoIngestsAtOnceEqualOneRun() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures(to: "tree/Fixtures")
        _ = tree
        let clean = scratch.file("clean.sqlite")
        #expect(try CatalogBinary.run(["ingest", scratch.file("tree"), "--db", clean, "--quiet"]).status == 0)
        let expected = try canonicalDump(clean)

        for round in 0..<3 {
            let db = scratch.file("both-\(round).sqlite")
            // Round 0 races on creating the file; later rounds on an existing, migrated catalogue.
            if round > 0 { try FileManager.default.copyItem(atPath: clean, toPath: db) }
            let arguments = ["ingest", scratch.file("tree"), "--db", db, "--quiet"] + (round > 0 ? ["--full"] : [])
            let a = try CatalogBinary.Child(arguments)
            let b = try CatalogBinary.Child(arguments)
            let results = [a.wait(), b.wait()]
            for result in results where result.status != 0 {
                // Allowed: a clear refusal rather than waiting.
                #expect(result.stderr.contains("another ingest"), "round \(round): \(result.stderr)")
            }
            #expect(results.contains { $0.status == 0 }, "round \(round): neither ingest succeeded")
            #expect(try integrityCheck(db) == "ok")
            #expect(try canonicalDump(db) == expected, "round \(round)")
            let running = try Connection(path: db, readOnly: true, wal: false)
                .count("SELECT count(*) AS n FROM ingest_runs WHERE status <> 'ok'")
            #expect(running == 0)
        }
    }

    /// What the reader thread saw, shared with the test.
    final class Observations: @unchecked Sendable {
        private let lock = NSLock()
        private var pairs: [(Int, Int)] = []
        private var errors: [String] = []
        private var stop = false

        func add(_ pair: (Int, Int)) { lock.withLock { pairs.append(pair) } }
        func fail(_ message: String) { lock.withLock { errors.append(message) } }
        func finish() { lock.withLock { stop = true } }
        var shouldStop: Bool { lock.withLock { stop } }
        var snapshot: (pairs: [(Int, Int)], errors: [String]) { lock.withLock { (pairs, errors) } }
    }

    @Test func aReaderDuringAnIngestSeesBeforeOrAfterNeverBetween() throws {
        let scratch = try Scratch()
        // Several copies make the run long enough for many reads to overlap it.
        for copy in 0..<6 { try scratch.copyFixtures(to: "tree/copy\(copy)") }
        if let corpus = IngestPaths.realCorpus { try scratch.copy(corpus + "/tree", to: "tree/real-corpus") }
        let db = scratch.file("catalog.sqlite")
        _ = try Connection.openCatalogue(path: db)  // an empty, migrated catalogue

        let observations = Observations()
        let done = DispatchSemaphore(value: 0)
        let path = db
        let reader = Thread {
            defer { done.signal() }
            var reads = 0
            while !observations.shouldStop || reads < 3 {
                do {
                    let connection = try Connection.openCatalogue(path: path, readOnly: true)
                    // Each count on its own, then both in one read transaction.
                    let profiles = try connection.count("SELECT count(*) AS n FROM profiles")
                    let locations = try connection.count("SELECT count(*) AS n FROM profile_locations")
                    observations.add((profiles, -1))
                    observations.add((-1, locations))
                    let pair = try connection.transaction(.deferred) {
                        (try connection.count("SELECT count(*) AS n FROM profiles"),
                         try connection.count("SELECT count(*) AS n FROM profile_locations"))
                    }
                    observations.add(pair)
                } catch {
                    observations.fail("\(error)")
                }
                reads += 1
            }
        }
        reader.start()
        let result = try CatalogBinary.run(["ingest", scratch.file("tree"), "--db", db, "--quiet"])
        observations.finish()
        done.wait()
        #expect(result.status == 0, "\(result.stderr)")

        let final = try Connection.openCatalogue(path: db, readOnly: true)
        let profiles = try final.count("SELECT count(*) AS n FROM profiles")
        let locations = try final.count("SELECT count(*) AS n FROM profile_locations")
        #expect(profiles > 0 && locations > profiles)
        let seen = observations.snapshot
        #expect(seen.errors.isEmpty, "reader errors: \(seen.errors.prefix(3))")
        #expect(seen.pairs.count >= 9)
        for (p, l) in seen.pairs {
            if p >= 0 { #expect(p == 0 || p == profiles, "saw \(p) profiles mid-run") }
            if l >= 0 { #expect(l == 0 || l == locations, "saw \(l) locations mid-run") }
            if p >= 0 && l >= 0 { #expect((p, l) == (0, 0) || (p, l) == (profiles, locations)) }
        }
    }
}
