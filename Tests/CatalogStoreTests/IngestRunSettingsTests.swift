import Foundation
import Testing
@testable import CatalogStore

/// Issue 17: the durability settings of an ingest run. On macOS the commit that ends a run and the
/// checkpoints are flushed with F_FULLFSYNC; the SQL is the same on Linux (where SQLite records the
/// settings and plain fsync already flushes), so both variants are checked here.
@Suite struct IngestRunSettingsTests {
    private func settings(_ connection: Connection) throws -> [Int64] {
        try ["fullfsync", "checkpoint_fullfsync", "synchronous", "cache_size", "temp_store"].map {
            try connection.queryFirst("PRAGMA \($0)")?[0].int64 ?? -99
        }
    }

    @Test(arguments: [true, false])
    func theSettingsAreAppliedAndACommitAndCheckpointWork(fullFsync: Bool) throws {
        let directory = try TemporaryDirectory()
        let connection = try Connection.openCatalogue(path: directory.path("catalog.sqlite"))
        try connection.configureForIngestRun(fullFsync: fullFsync)
        // synchronous: 2 = FULL (the run's one commit is synced), 1 = NORMAL; temp_store 2 = MEMORY.
        #expect(try settings(connection) == (fullFsync ? [1, 1, 2, -16384, 2] : [0, 0, 1, -16384, 2]))
        try connection.transaction {
            try connection.execute("CREATE TABLE t (x)")
            try connection.execute("INSERT INTO t VALUES (42)")
        }
        _ = try connection.query("PRAGMA wal_checkpoint(TRUNCATE)")
        let reader = try Connection.openCatalogue(path: directory.path("catalog.sqlite"), readOnly: true)
        #expect(try reader.queryFirst("SELECT x FROM t")?[0].int64 == 42)
    }

    @Test func fullFsyncIsThePlatformDefaultOnlyOnMacOS() throws {
        #if os(macOS)
        #expect(Connection.platformNeedsFullFsync)
        #else
        #expect(!Connection.platformNeedsFullFsync)
        #endif
        let directory = try TemporaryDirectory()
        let connection = try Connection.openCatalogue(path: directory.path("catalog.sqlite"))
        try connection.configureForIngestRun()
        #expect(try connection.queryFirst("PRAGMA fullfsync")?[0].int64 == (Connection.platformNeedsFullFsync ? 1 : 0))
    }
}
