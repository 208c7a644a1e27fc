import CatalogCore
import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// Migration 0010 (issue 15): a catalogue written before it keeps its incremental index, and a raw
/// plist stored before it (the plist itself) still comes back from `rawPlist(uuid:)`.
@Suite struct CompactCatalogueMigrationTests {
    @Test func filesRowsSurviveAndAnOldRawPlistIsReadAsItIs() throws {
        let directory = try Scratch()
        let path = directory.file("catalogue.sqlite")
        let migration = try #require(Migration.all.firstIndex { $0.name == "compact_catalogue" })
        let plist = Array("<?xml version=\"1.0\"?><plist><dict><key>UUID</key><string>A</string></dict></plist>\n".utf8)
        do {
            let old = try Connection(path: path)
            try Migrator(migrations: Array(Migration.all.prefix(migration))).migrate(old)
            try old.execute("INSERT INTO ingest_runs (id, started_at, status) VALUES (1, '2026-11-01T00:00:00Z', 'ok')")
            try old.execute("""
                INSERT INTO files (path, size, mtime, mtime_ns, kind, sha256, status, last_run_id)
                VALUES ('/r/a.mobileprovision', 12, '2026-11-01T00:00:00Z', 1761955200000000007, 'profile', 'AB', 'ok', 1)
                """)
            try old.execute("""
                INSERT INTO profiles (uuid, name, kind, creation_date, expiration_date, effective_expiration_date,
                    expiry_cause, sha256, raw_plist, first_seen, last_seen)
                VALUES ('A', 'n', 'development', '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z',
                    '2027-01-01T00:00:00Z', 'profile', 'AB', ?, '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z')
                """, [.blob(plist)])
        }
        let connection = try Connection.openCatalogue(path: path)
        let first = try connection.queryFirst("SELECT path, size, mtime_ns, status, last_run_id FROM files")
        let row = try #require(first)
        #expect(row.string("path") == "/r/a.mobileprovision")
        #expect(row.int64("size") == 12)
        #expect(row.int64("mtime_ns") == 1_761_955_200_000_000_007)
        #expect(row.string("status") == "ok")
        #expect(row.int64("last_run_id") == 1)
        #expect(try connection.rawPlist(uuid: "a") == plist)
        #expect(try connection.queryFirst("SELECT count(*) AS n FROM certificate_der")?.int64("n") == 0)
    }
}
