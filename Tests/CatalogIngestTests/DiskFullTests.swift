import Foundation
import Testing
@testable import CatalogIngest
@testable import CatalogStore
import CatalogTestSupport

/// Issue "reliability": a disk that fills mid-run (simulated with `PRAGMA max_page_count`) fails the
/// run and leaves the catalogue exactly as it was.
@Suite(.timeLimit(.minutes(10))) struct DiskFullTests {
    @Test func aFullDiskFailsTheRunAndChangesNothing() throws {
        let scratch = try Scratch()
        // Generated fixtures only (real corpus or not), large enough to need more than the 2 pages left.
        let tree = try scratch.makeFixtureTree(copies: 3, profileVariants: 20)
        let db = scratch.file("catalog.sqlite")
        // Some content first, so "unchanged" means more than "still empty".
        try ingest([tree + "/copy0/profiles"], db: db)
        let before = try canonicalDump(db)
        #expect(!before.isEmpty)

        do {
            let connection = try Connection.openCatalogue(path: db)
            let pages = try connection.count("SELECT page_count AS n FROM pragma_page_count()")
            #expect(pages > 0)
            _ = try connection.query("PRAGMA max_page_count = \(pages + 2)")
            let ingester = Ingester(db: connection, options: IngestOptions(roots: [tree], full: true))
            #expect {
                _ = try ingester.run()
            } throws: { error in
                if case .diskFull? = error as? StoreError { return true }
                return false
            }
            #expect(!connection.isInTransaction)
        }
        #expect(try integrityCheck(db) == "ok")
        #expect(try canonicalDump(db) == before)
        let runs = try Connection.openCatalogue(path: db, readOnly: true)
        #expect(try runs.count("SELECT count(*) AS n FROM ingest_runs WHERE status = 'running'") == 0)
        // And the next run, with room again, completes.
        try ingest([tree], db: db)
        #expect(try canonicalDump(db).count > before.count)
    }
}
