import Foundation
@testable import CatalogStore

/// A fleet's catalogue made from a one-host SQLite catalogue (every host ''), for the query side of
/// the host dimension (issue 16) while the writer cannot yet name hosts: every row moves to host
/// `build-01`, and `build-02` gets copies at the same paths of part of it, so the two hosts share
/// paths, profiles present on both, on one only, or removed on one and present on the other:
///
/// - locations: those with `id % 3 <> 0` are copied to `build-02`; of the copies, `id % 6 = 2` are
///   removed there; of the originals, `id % 6 = 1` are removed on `build-01` (present on `build-02` only);
/// - builds: every build is copied (nested builds point at their own host's parent); `build-02`'s
///   copies of `id % 3 = 0` are removed;
/// - runs: `build-02` has one run, a copy of run 1 after the others, holding copies of run 1's even
///   errors (the same paths as `build-01`'s).
///
/// The one-host unique indexes (`*_one_host`, which the host-aware writer's migration drops) go first.
enum TwoHostCatalogue {
    static let first = "build-01"
    static let second = "build-02"

    static func split(_ db: Connection) throws {
        try db.transaction {
            for index in ["profile_locations_path_one_host", "builds_path_one_host", "files_path_one_host"] {
                try db.execute("DROP INDEX IF EXISTS \(index)")
            }
            for table in ["profile_locations", "builds", "files", "ingest_runs"] {
                try db.execute("UPDATE \(table) SET host = ?", [.text(first)])
            }
            try copy("profile_locations", in: db, where: "id % 3 <> 0",
                     set: ["removed_at": "CASE WHEN id % 6 = 2 THEN last_seen ELSE removed_at END"])
            try db.execute("UPDATE profile_locations SET removed_at = last_seen WHERE host = ? AND id % 6 = 1", [.text(first)])
            try copy("builds", in: db, where: "host = '\(first)'",
                     set: ["removed_at": "CASE WHEN id % 3 = 0 THEN last_seen ELSE removed_at END"])
            try db.execute("""
                UPDATE builds SET parent_build_id = (
                    SELECT mine.id FROM builds original JOIN builds parent ON parent.id = original.parent_build_id
                    JOIN builds mine ON mine.host = builds.host AND mine.path = parent.path AND mine.app_path = parent.app_path
                    WHERE original.host = ? AND original.path = builds.path AND original.app_path = builds.app_path)
                WHERE host = ? AND parent_build_id IS NOT NULL
                """, [.text(first), .text(second)])
            try copy("ingest_runs", in: db, where: "id = 1", set: [:])
            let run = try db.queryFirst("SELECT max(id) AS id FROM ingest_runs")?.int64("id") ?? 0
            try copy("ingest_errors", in: db, where: "run_id = 1 AND id % 2 = 0", set: ["run_id": String(run)])
        }
    }

    /// Copies the rows of `table` that `condition` selects as `second`'s (new ids), with some
    /// columns computed by `set` from the original row.
    private static func copy(_ table: String, in db: Connection, where condition: String, set: [String: String]) throws {
        let columns = try db.query("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(table)])
            .compactMap { $0.string("name") }.filter { $0 != "id" }
        let values = columns.map { column in column == "host" ? "'\(second)'" : set[column] ?? column }
        try db.execute("""
            INSERT INTO \(table) (\(columns.joined(separator: ", ")))
            SELECT \(values.joined(separator: ", ")) FROM \(table) WHERE \(condition) ORDER BY id
            """)
    }
}
