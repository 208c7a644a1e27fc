import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// A write interrupted in rollback-journal mode (a new catalogue's first ingest, killed) leaves a
/// hot journal. A reader that may write the file rolls it back; one that may only read it cannot,
/// and is told why and who can fix it instead of SQLite's "attempt to write a readonly database".
@Suite struct InterruptedWriteTests {
    /// A copy, taken mid-transaction, of a catalogue whose transaction has spilled pages into the
    /// file: what a killed writer leaves.
    private func interruptedCopy(in directory: Scratch) throws -> String {
        let path = directory.file("live/catalogue.sqlite")
        try FileManager.default.createDirectory(atPath: directory.file("live"), withIntermediateDirectories: true)
        let writer = try Connection.openCatalogue(path: path)
        #expect(try writer.queryFirst("PRAGMA journal_mode")?[0] == .text("delete"))
        _ = try writer.query("PRAGMA cache_size = 2")
        try writer.execute("BEGIN IMMEDIATE")
        for index in 0..<2000 {
            try writer.execute("INSERT INTO devices (udid, first_seen) VALUES (?, '2026-12-01T00:00:00Z')",
                               [.text(String(repeating: "D", count: 100) + String(index))])
        }
        let copy = directory.file("copy/catalogue.sqlite")
        try FileManager.default.createDirectory(atPath: directory.file("copy"), withIntermediateDirectories: true)
        for suffix in ["", "-journal"] {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
        }
        try writer.execute("ROLLBACK")
        return copy
    }

    @Test func aReadOnlyReaderIsToldWhoCanRollTheJournalBack() throws {
        let directory = try Scratch()
        let copy = try interruptedCopy(in: directory)
        let error = try #require(throws: StoreError.self) { try Connection.openCatalogue(path: copy, readOnly: true) }
        #expect(error == .interruptedWrite(path: copy))
        #expect(error.description.contains("only a user who may write the catalogue can roll back"), "\(error)")
        #expect(FileManager.default.fileExists(atPath: copy + "-journal"))

        // One who may write it rolls it back: the interrupted rows are gone, the catalogue intact.
        let writer = try Connection(path: copy, readOnly: false, wal: false)
        #expect(try writer.queryFirst("SELECT count(*) FROM devices")?[0] == .integer(0))
        #expect(try writer.queryFirst("PRAGMA integrity_check")?[0] == .text("ok"))
        #expect(try Connection.openCatalogue(path: copy, readOnly: true).queryFirst("SELECT count(*) FROM devices")?[0]
                == .integer(0))
    }
}
