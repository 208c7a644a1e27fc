import CatalogCore
import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// Migration 0002 (issue 9 §3): a catalogue written before it keeps showing, as current errors, the
/// errors of its latest run only (what `catalog errors` showed then), and every run's history.
@Suite struct IngestFailuresMigrationTests {
    @Test func errorsOfEarlierRunsAreClearedAndTheLatestRunsStayCurrent() throws {
        let directory = try Scratch()
        let path = directory.file("catalogue.sqlite")
        let migration = try #require(Migration.all.firstIndex { $0.name == "ingest_failures" })
        do {
            let old = try Connection(path: path)
            try Migrator(migrations: Array(Migration.all.prefix(migration))).migrate(old)
            for run in 1...2 {
                try old.execute("INSERT INTO ingest_runs (id, started_at, status) VALUES (?, ?, 'ok')",
                                [.integer(Int64(run)), .text("2026-11-0\(run)T00:00:00Z")])
                try old.execute("INSERT INTO ingest_errors (run_id, path, message) VALUES (?, '/r/bad', 'file is empty')",
                                [.integer(Int64(run))])
            }
            try old.execute("INSERT INTO ingest_errors (run_id, path, message) VALUES (1, '/r/fixed', 'file is empty')")
        }
        let connection = try Connection.openCatalogue(path: path)
        let queries = CatalogQueries(connection)
        #expect(try queries.errors(runID: nil) == [
            IngestErrorSummary(runID: 2, path: "/r/bad", message: "file is empty"),
        ])
        #expect(try queries.errors(runID: 1).count == 2)
        let cleared = try connection.query("SELECT cleared_at FROM ingest_errors WHERE run_id = 1")
        #expect(cleared.allSatisfy { $0.string("cleared_at") == "2026-11-02T00:00:00Z" })
        // The new columns exist and start empty.
        #expect(try connection.query("SELECT error FROM profile_locations UNION ALL SELECT error FROM builds").isEmpty)
    }
}
