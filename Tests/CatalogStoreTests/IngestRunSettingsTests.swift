import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// Issue 17: the durability settings of an ingest run. On macOS the commit that ends a run and the
/// checkpoints are synced with SQLite's fullfsync settings, and the run's commit flushed with
/// F_FULLFSYNC; the SQL is the same on Linux (where SQLite records the settings and plain fsync
/// already flushes), so both variants are checked here.
@Suite struct IngestRunSettingsTests {
    private func settings(_ connection: Connection) throws -> [Int64] {
        try ["fullfsync", "checkpoint_fullfsync", "synchronous", "cache_size", "temp_store"].map {
            try connection.queryFirst("PRAGMA \($0)")?[0].int64 ?? -99
        }
    }

    @Test(arguments: [true, false])
    func theSettingsAreAppliedAndACommitAndCheckpointWork(fullFsync: Bool) throws {
        let directory = try Scratch()
        let connection = try Connection.openCatalogue(path: directory.file("catalog.sqlite"))
        try connection.configureForIngestRun(fullFsync: fullFsync)
        // synchronous: 2 = FULL (the run's one commit is synced), 1 = NORMAL; temp_store 2 = MEMORY.
        #expect(try settings(connection) == (fullFsync ? [1, 1, 2, -16384, 2] : [0, 0, 1, -16384, 2]))
        try connection.transaction {
            try connection.execute("CREATE TABLE t (x)")
            try connection.execute("INSERT INTO t VALUES (42)")
        }
        _ = try connection.query("PRAGMA wal_checkpoint(TRUNCATE)")
        let reader = try Connection.openCatalogue(path: directory.file("catalog.sqlite"), readOnly: true)
        #expect(try reader.queryFirst("SELECT x FROM t")?[0].int64 == 42)
    }

    /// Apple's SQLite is built with checkpoint_fullfsync on by default: the settings must switch both
    /// pragmas off explicitly, not leave them as the library starts them. Here they start on.
    @Test func bothFullFsyncPragmasAreSetExplicitlyEitherWay() throws {
        let directory = try Scratch()
        for fullFsync in [false, true] {
            let connection = try Connection.openCatalogue(path: directory.file("catalog.sqlite"))
            _ = try connection.query("PRAGMA fullfsync = ON")
            _ = try connection.query("PRAGMA checkpoint_fullfsync = ON")
            try connection.configureForIngestRun(fullFsync: fullFsync)
            #expect(try settings(connection).prefix(2) == (fullFsync ? [1, 1] : [0, 0]))
            _ = try connection.query("PRAGMA fullfsync = OFF")
            _ = try connection.query("PRAGMA checkpoint_fullfsync = OFF")
            try connection.configureForIngestRun(fullFsync: fullFsync)
            #expect(try settings(connection).prefix(2) == (fullFsync ? [1, 1] : [0, 0]))
        }
    }

    /// After a run's commit the write-ahead log is the file flushed to the medium (F_FULLFSYNC, on
    /// Darwin); a catalogue still in rollback-journal mode has none, and nothing is flushed.
    @Test func theFileFlushedAfterACommitIsTheWriteAheadLog() throws {
        let directory = try Scratch()
        let path = directory.file("catalog.sqlite")
        let fresh = try Connection.openCatalogue(path: path)
        #expect(try fresh.writeAheadLogPath() == nil)
        fresh.flushCommitToMedium()
        let connection = try Connection.openCatalogue(path: path)
        _ = try connection.transaction { try connection.execute("CREATE TABLE t (x)") }
        let wal = try #require(try connection.writeAheadLogPath())
        #expect(wal == path + "-wal")
        #expect(FileManager.default.fileExists(atPath: wal))
        connection.flushCommitToMedium()
    }

    @Test func fullFsyncIsThePlatformDefaultOnlyOnMacOS() throws {
        #if os(macOS)
        #expect(Connection.platformNeedsFullFsync)
        #else
        #expect(!Connection.platformNeedsFullFsync)
        #endif
        let directory = try Scratch()
        let connection = try Connection.openCatalogue(path: directory.file("catalog.sqlite"))
        try connection.configureForIngestRun()
        #expect(try settings(connection).prefix(2) == (Connection.platformNeedsFullFsync ? [1, 1] : [0, 0]))
    }
}
