import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// Migration 0013_path_first_keys (issue 15): locations and builds are keyed path first, the file
/// index is a WITHOUT ROWID table, and the indexes those keys make redundant are gone. Every row,
/// id and reference of two hosts survives; the writer's upserts still find their rows; a lookup by
/// path alone still searches an index.
@Suite struct PathFirstKeysMigrationTests {
    private static let tables = ["profile_locations", "builds", "files"]

    private func rows(_ connection: Connection, _ table: String) throws -> [[SQLValue]] {
        try connection.query("SELECT * FROM \(table) ORDER BY host, path").map(\.values)
    }

    @Test func rowsIdsAndReferencesSurviveAndTheKeysLeadWithThePath() throws {
        let directory = try Scratch()
        let path = directory.file("catalogue.sqlite")
        let migration = try #require(Migration.all.first { $0.name == "path_first_keys" })
        let now = "2026-11-30T10:00:00Z"
        var before: [String: [[SQLValue]]] = [:]
        do {
            let old = try catalogue(before: migration.name, at: path, now: now)
            try old.execute("INSERT INTO ingest_runs (id, started_at, status) VALUES (3, ?, 'ok')", [.text(now)])
            for (offset, host) in ["", "build-02"].enumerated() {
                let id = Int64(10 * (offset + 1))
                try old.execute("""
                    INSERT INTO profile_locations (id, host, path, profile_uuid, container_kind, first_seen, last_seen, error)
                    VALUES (?2, ?3, '/p/a.mobileprovision', 'P-1', 'standalone', ?1, ?1, 'old error')
                    """, [.text(now), .integer(id), .text(host)])
                try old.execute("""
                    INSERT INTO builds (id, host, short_version, build, version_sort, build_sort, source_kind, path,
                                        app_path, profile_uuid, first_seen, last_seen)
                    VALUES (?2, ?3, '1.0', '1', 'a', 'b', 'xcarchive', '/a/App.xcarchive', '', 'P-1', ?1, ?1),
                           (?2 + 1, ?3, '1.0', '1', 'a', 'b', 'xcarchive', '/a/App.xcarchive', 'Products/W.appex', NULL, ?1, ?1)
                    """, [.text(now), .integer(id), .text(host)])
                try old.execute("UPDATE builds SET parent_build_id = ? WHERE id = ?", [.integer(id), .integer(id + 1)])
                try old.execute("""
                    INSERT INTO files (host, path, size, mtime, mtime_ns, kind, status, last_run_id)
                    VALUES (?2, '/p/a.mobileprovision', 10, ?1, 12345, 'profile', 'ok', 3)
                    """, [.text(now), .text(host)])
            }
            for table in Self.tables { before[table] = try rows(old, table) }
        }
        let connection = try Connection.openCatalogue(path: path)
        #expect(try Migrator().currentVersion(of: connection) >= migration.id)
        #expect(try connection.queryFirst("PRAGMA foreign_key_check") == nil)
        for table in Self.tables {
            // Later migrations add columns at the end (0019: builds.signing_checked): the old ones compare.
            let width = before[table]?.first?.count ?? 0
            #expect(try rows(connection, table).map { Array($0.prefix(width)) } == before[table], "\(table)")
            #expect(try rows(connection, table).count == (table == "builds" ? 4 : 2))
        }

        let indexes = try connection.query("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name")
            .compactMap { $0.string("name") }
        for gone in ["profile_locations_path", "builds_path", "files_last_run_id"] {
            #expect(!indexes.contains(gone), "\(gone) is still there")
        }
        let filesSQL = try connection.queryFirst("SELECT sql FROM sqlite_master WHERE name = 'files'")?.string("sql") ?? ""
        #expect(filesSQL.hasSuffix("WITHOUT ROWID"))

        // The writer's conflict targets name the same columns as before.
        try connection.execute("""
            INSERT INTO profile_locations (host, path, profile_uuid, container_kind, first_seen, last_seen)
            VALUES ('build-02', '/p/a.mobileprovision', 'P-1', 'standalone', ?1, ?1)
            ON CONFLICT (host, path) DO UPDATE SET error = NULL
            """, [.text(now)])
        try connection.execute("""
            INSERT INTO files (host, path, size, mtime, kind, status) VALUES ('', '/p/a.mobileprovision', 11, ?, 'profile', 'ok')
            ON CONFLICT (host, path) DO UPDATE SET size = excluded.size
            """, [.text(now)])
        #expect(try connection.query("SELECT id, error FROM profile_locations ORDER BY id").map(\.values)
                == [[.integer(10), .text("old error")], [.integer(20), .null]])
        #expect(try connection.query("SELECT host, size FROM files ORDER BY host").map(\.values)
                == [[.text(""), .integer(11)], [.text("build-02"), .integer(10)]])

        // Lookups by path alone, and a host's rows under a folder, search the keys.
        for (table, query) in [("profile_locations", "SELECT id FROM profile_locations WHERE path = '/p/a.mobileprovision'"),
                               ("builds", "SELECT id FROM builds WHERE path = '/a/App.xcarchive'"),
                               ("profile_locations", "SELECT id FROM profile_locations WHERE host = '' AND path >= '/p/' AND path < '/p0'"),
                               ("files", "SELECT size FROM files WHERE host = '' AND path >= '/p/' AND path < '/p0'")] {
            let plan = try connection.query("EXPLAIN QUERY PLAN " + query).compactMap { $0.string("detail") }
            #expect(plan.contains { $0.hasPrefix("SEARCH \(table) USING") }, "\(query): \(plan)")
        }

        // The references still cascade: deleting an archive deletes its extension, on each host.
        try connection.execute("DELETE FROM builds WHERE id IN (10, 20)")
        #expect(try connection.query("SELECT id FROM builds").isEmpty)
    }
}
