import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// Migration 0015_check_lists (issue 15): the CHECK constraints of profiles, locations, builds and
/// files that listed their values with `IN (…)` are comparisons joined by OR. Every row and id
/// survives with its references; the tables keep their columns, keys and indexes; writing a row no
/// longer opens a temporary index; and every constraint still refuses what it refused.
@Suite struct CheckListsMigrationTests {
    private static let tables = ["profiles", "profile_locations", "builds", "files"]
    private static let now = "2026-12-01T10:00:00Z"

    private func rows(_ connection: Connection, _ table: String) throws -> [[SQLValue]] {
        let order = table == "files" ? "host, path" : "id"
        return try connection.query("SELECT * FROM \(table) ORDER BY \(order)").map(\.values)
    }

    /// Columns with their types, defaults and keys; foreign keys; index definitions.
    private func shape(_ connection: Connection, _ table: String) throws -> [[SQLValue]] {
        try connection.query("SELECT * FROM pragma_table_info('\(table)') ORDER BY cid").map(\.values)
            + connection.query("SELECT * FROM pragma_foreign_key_list('\(table)') ORDER BY id, seq").map(\.values)
            + connection.query("""
                SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = '\(table)' ORDER BY name
                """).map(\.values)
    }

    @Test func rowsSurviveTheShapeStaysAndTheConstraintsStillHold() throws {
        let directory = try Scratch()
        let path = directory.file("catalogue.sqlite")
        var before: [String: [[SQLValue]]] = [:], shapes: [String: [[SQLValue]]] = [:]
        do {
            let old = try catalogue(before: "check_lists", at: path, now: Self.now)
            try old.executeScript("""
                UPDATE profiles SET signature = 'verified', der_profile = 'match', team_id = 'T' WHERE id = 7;
                INSERT INTO profiles (id, uuid, name, kind, creation_date, expiration_date, effective_expiration_date,
                                      expiry_cause, sha256, raw_plist, first_seen, last_seen, signature, der_profile)
                VALUES (9, 'P-2', 'Other', 'app-store', '\(Self.now)', '\(Self.now)', '\(Self.now)', 'certificate',
                        'CD', x'0043500201', '\(Self.now)', '\(Self.now)', NULL, 'absent');
                INSERT INTO devices (id, udid, first_seen) VALUES (1, 'D-1', '\(Self.now)');
                INSERT INTO profile_devices (profile_id, device_id) VALUES (7, 1), (9, 1);
                INSERT INTO entitlements (profile_id, key, value_json) VALUES (9, 'get-task-allow', 'false');
                INSERT INTO ingest_runs (id, started_at, status) VALUES (3, '\(Self.now)', 'ok');
                INSERT INTO profile_locations (id, host, path, profile_uuid, container_kind, container_path, first_seen, last_seen)
                VALUES (20, '', '/p/a.mobileprovision', 'P-1', 'standalone', NULL, '\(Self.now)', '\(Self.now)'),
                       (21, 'build-02', '/a/App.ipa/Payload/App.app/embedded.mobileprovision', 'P-2', 'ipa', '/a/App.ipa',
                        '\(Self.now)', '\(Self.now)');
                INSERT INTO builds (id, host, short_version, build, version_sort, build_sort, source_kind, path,
                                    app_path, profile_uuid, first_seen, last_seen)
                VALUES (30, '', '1.0', '1', 'a', 'b', 'xcarchive', '/a/App.xcarchive', '', 'P-1', '\(Self.now)', '\(Self.now)'),
                       (31, '', '1.0', '1', 'a', 'b', 'xcarchive', '/a/App.xcarchive', 'W.appex', NULL, '\(Self.now)', '\(Self.now)');
                UPDATE builds SET parent_build_id = 30 WHERE id = 31;
                INSERT INTO files (host, path, size, mtime, kind, status, last_run_id)
                VALUES ('', '/p/a.mobileprovision', 10, '\(Self.now)', 'profile', 'ok', 3),
                       ('', '/p/b.mobileprovision', 0, '\(Self.now)', 'profile', 'error', 3);
                """)
            for table in Self.tables {
                before[table] = try rows(old, table)
                shapes[table] = try shape(old, table)
            }
        }
        // Through this migration only: 0016 moves raw_plist out of the profiles rows compared here.
        let connection = try catalogue(through: "check_lists", at: path)
        #expect(try connection.queryFirst("PRAGMA foreign_key_check") == nil)
        #expect(try connection.queryFirst("PRAGMA integrity_check")?[0] == .text("ok"))
        for table in Self.tables {
            #expect(try rows(connection, table) == before[table], "\(table)")
            #expect(try shape(connection, table) == shapes[table], "\(table)")
        }
        #expect(try connection.queryFirst("SELECT count(*) FROM profile_devices")?[0] == .integer(2))

        // Writing a row opens no temporary index any more.
        let inserts = [
            "INSERT INTO profiles (uuid, name, kind, creation_date, expiration_date, effective_expiration_date, expiry_cause, sha256, raw_plist, first_seen, last_seen, signature, der_profile) VALUES ('P-3', 'N', 'ad-hoc', ?1, ?1, ?1, 'profile', 'EF', x'00', ?1, ?1, 'invalid', 'mismatch')",
            "INSERT INTO profile_locations (host, path, profile_uuid, container_kind, first_seen, last_seen) VALUES ('', '/x', 'P-1', 'app', ?1, ?1)",
            "INSERT INTO builds (short_version, build, version_sort, build_sort, source_kind, path, first_seen, last_seen) VALUES ('1', '1', 'a', 'b', 'plist', '/y', ?1, ?1)",
            "INSERT INTO files (path, size, mtime, kind, status) VALUES ('/z', 1, ?1, 'plist', 'skipped')",
        ]
        for sql in inserts {
            let program = try connection.query("EXPLAIN " + sql, [.text(Self.now)]).compactMap { $0.string("opcode") }
            #expect(!program.contains("OpenEphemeral"), "\(sql.prefix(40))")
            try connection.execute(sql, [.text(Self.now)])
        }

        // Every value each list allowed is still allowed (above and before), and nothing else is.
        let refused = [
            "UPDATE profiles SET kind = 'beta' WHERE id = 7",
            "UPDATE profiles SET signature = 'maybe' WHERE id = 7",
            "UPDATE profiles SET der_profile = 'other' WHERE id = 7",
            "UPDATE profiles SET expiry_cause = 'time' WHERE id = 7",
            "UPDATE profiles SET provisions_all_devices = 2 WHERE id = 7",
            "UPDATE profile_locations SET container_kind = 'zip' WHERE id = 20",
            "UPDATE builds SET source_kind = 'apk' WHERE id = 30",
            "UPDATE builds SET unresolved = 5 WHERE id = 30",
            "UPDATE files SET status = 'lost' WHERE path = '/z'",
        ]
        for sql in refused {
            #expect(throws: SQLiteError.self, "\(sql)") { try connection.execute(sql) }
        }
        for kind in ["development", "ad-hoc", "app-store", "enterprise", "developer-id"] {
            try connection.execute("UPDATE profiles SET kind = ? WHERE id = 7", [.text(kind)])
        }
        for status in ["verified", "unsigned", "invalid", "untrusted", "error"] {
            try connection.execute("UPDATE profiles SET signature = ? WHERE id = 7", [.text(status)])
        }
        for kind in ["standalone", "app", "ipa", "xcarchive"] {
            try connection.execute("UPDATE profile_locations SET container_kind = ? WHERE id = 20", [.text(kind)])
        }
    }
}
