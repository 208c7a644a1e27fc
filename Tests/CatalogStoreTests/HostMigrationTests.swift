import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// Migration 0008_host (issue 16): a catalogue written before it keeps every row, id and reference;
/// its rows belong to the unnamed host ''; the keys include the host. Migration 0011_host_keys: the
/// one-host unique indexes are gone, so two hosts hold the same path, each upserting its own row.
@Suite struct HostMigrationTests {
    @Test func rowsIdsAndReferencesSurviveAndBelongToTheUnnamedHost() throws {
        let directory = try Scratch()
        let path = directory.file("catalogue.sqlite")
        let now = "2026-11-30T10:00:00Z"
        do {
            let old = try catalogue(before: "host", at: path, now: now)
            try old.execute("""
                INSERT INTO profile_locations (id, path, profile_uuid, container_kind, first_seen, last_seen, error)
                VALUES (41, '/p/a.mobileprovision', 'P-1', 'standalone', ?1, ?1, 'old error')
                """, [.text(now)])
            try old.execute("""
                INSERT INTO builds (id, short_version, build, version_sort, build_sort, source_kind, path, app_path,
                                    profile_uuid, first_seen, last_seen)
                VALUES (5, '1.0', '1', 'a', 'b', 'xcarchive', '/a/App.xcarchive', '', 'P-1', ?1, ?1),
                       (6, '1.0', '1', 'a', 'b', 'xcarchive', '/a/App.xcarchive', 'Products/W.appex', NULL, ?1, ?1)
                """, [.text(now)])
            try old.execute("UPDATE builds SET parent_build_id = 5 WHERE id = 6")
            try old.execute("INSERT INTO ingest_runs (id, started_at, status) VALUES (3, ?, 'ok')", [.text(now)])
            try old.execute("""
                INSERT INTO files (path, size, mtime, mtime_ns, kind, status, last_run_id)
                VALUES ('/p/a.mobileprovision', 10, ?, 12345, 'profile', 'ok', 3)
                """, [.text(now)])
        }
        let connection = try Connection.openCatalogue(path: path)
        #expect(try Migrator().currentVersion(of: connection) == Migration.all.last?.id)
        #expect(try connection.queryFirst("PRAGMA foreign_key_check") == nil)
        let location = try #require(try connection.queryFirst("SELECT id, host, path, error FROM profile_locations"))
        #expect(location.values == [.integer(41), .text(""), .text("/p/a.mobileprovision"), .text("old error")])
        let builds = try connection.query("SELECT id, host, parent_build_id, profile_uuid FROM builds ORDER BY id")
        #expect(builds.map(\.values) == [[.integer(5), .text(""), .null, .text("P-1")],
                                         [.integer(6), .text(""), .integer(5), .null]])
        let file = try #require(try connection.queryFirst("SELECT host, path, mtime_ns, last_run_id FROM files"))
        #expect(file.values == [.text(""), .text("/p/a.mobileprovision"), .integer(12345), .integer(3)])
        #expect(try connection.queryFirst("SELECT host FROM ingest_runs")?.string("host") == "")

        // The references still cascade: deleting the archive deletes its extension.
        try connection.execute("DELETE FROM builds WHERE id = 5")
        #expect(try connection.query("SELECT id FROM builds").isEmpty)
    }

    @Test func twoHostsHoldTheSamePathEachUpsertingItsOwnRow() throws {
        let directory = try Scratch()
        let connection = try Connection.openCatalogue(path: directory.file("catalogue.sqlite"))
        for (host, size) in [("", 1), ("mac-01", 5), ("", 2), ("mac-01", 6)] {
            try connection.execute("""
                INSERT INTO files (host, path, size, mtime, kind, status) VALUES (?, '/x', ?, 't', 'profile', 'ok')
                ON CONFLICT (host, path) DO UPDATE SET size = excluded.size
                """, [.text(host), .integer(Int64(size))])
            try connection.execute("""
                INSERT INTO builds (host, short_version, build, version_sort, build_sort, source_kind, path,
                                    first_seen, last_seen)
                VALUES (?, '1.0', ?, 'a', 'b', 'app', '/A.app', 't', 't')
                ON CONFLICT (host, path, app_path) DO UPDATE SET build = excluded.build
                """, [.text(host), .text(String(size))])
        }
        #expect(try connection.query("SELECT host, size FROM files ORDER BY host").map(\.values)
                == [[.text(""), .integer(2)], [.text("mac-01"), .integer(6)]])
        #expect(try connection.query("SELECT host, build FROM builds ORDER BY host").map(\.values)
                == [[.text(""), .text("2")], [.text("mac-01"), .text("6")]])
        // Lookups by path alone still search an index: since 0013 the key, which leads with the path.
        let plan = try connection.query("EXPLAIN QUERY PLAN SELECT id FROM builds WHERE path = '/A.app'")
        #expect(plan.contains { ($0.string("detail") ?? "").hasPrefix("SEARCH builds USING") }, "\(plan)")
    }
}
