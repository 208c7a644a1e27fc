extension Connection {
    /// The secondary indexes of a catalogue, as `sqlite_master` holds them: every index created by
    /// a migration that is not UNIQUE (those enforce the keys the writer's upserts name).
    private static let secondaryIndexes = """
        SELECT name, sql FROM sqlite_master
        WHERE type = 'index' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%'
        ORDER BY name
        """

    /// Inside the run's transaction, when the catalogue holds nothing yet (a first ingest): drops
    /// the secondary indexes and returns their definitions, for ``createIndexes(_:)`` to build once
    /// the rows are in — sorting each index once costs less than updating it row by row. Nothing
    /// when the catalogue is not empty. The drop is part of the transaction: a run that fails or is
    /// killed rolls it back with everything else.
    /// Kept for speed: cold ingest (bench.py).
    func dropSecondaryIndexesIfEmpty() throws -> [String] {
        guard try holdsNothing() else { return [] }
        let indexes = try query(Self.secondaryIndexes).compactMap { row -> (String, String)? in
            guard let name = row.string("name"), let sql = row.string("sql") else { return nil }
            return (name, sql)
        }
        for (name, _) in indexes { try execute("DROP INDEX \"\(name.replacingOccurrences(of: "\"", with: "\"\""))\"") }
        return indexes.map(\.1)
    }

    /// Builds the indexes ``dropSecondaryIndexesIfEmpty()`` dropped, from their definitions.
    ///
    /// SQLite sorts each index's keys in runs of the page cache's size and merges them from
    /// temporary files; with the run's `temp_store = MEMORY` those files would be memory, and
    /// building a large tree's device-link index would nearly double the ingest's peak memory, so the
    /// runs go to temporary files on disk instead, at no cost in time.
    /// Kept for memory: ingest peak RSS of the large tree (bench.py).
    func createIndexes(_ definitions: [String]) throws {
        guard !definitions.isEmpty else { return }
        // SQLite refuses the switch inside a transaction once the temporary database is open; the
        // run uses none, and if one ever did the builds would sort in memory as before, not fail.
        _ = try? query("PRAGMA temp_store = FILE")
        defer { _ = try? query("PRAGMA temp_store = MEMORY") }
        for sql in definitions { try execute(sql) }
    }

    /// Before the transaction of a run into a catalogue that holds nothing yet: switches foreign-key
    /// enforcement off (it cannot change inside a transaction), so that each device link is not
    /// checked against two tables as it is inserted. ``checkForeignKeys()`` checks everything once
    /// before the run commits, so what is stored is held to the same rule. Returns whether it did;
    /// the caller switches enforcement back on after the transaction, however it ended.
    /// Kept for speed: cold ingest (bench.py).
    func deferForeignKeysIfEmpty() throws -> Bool {
        guard !isInTransaction, try holdsNothing() else { return false }
        try execute("PRAGMA foreign_keys = OFF")
        return true
    }

    /// Every reference in the catalogue resolves, else the run fails with SQLite's foreign-key
    /// constraint error naming the table: what enforcement would have refused row by row.
    ///
    /// Table by table. A table whose every reference is one of ``rangeCheckedReferences`` is checked
    /// by range when each parent's ids are exactly 1…n (count = max, min ≥ 1, as a first ingest
    /// leaves them): then a reference resolves if and only if it lies in 1…n, and the child
    /// column's least and greatest values say that with two index lookups. `PRAGMA
    /// foreign_key_check` looks every row up instead, which for the device links is most of the
    /// check. Any other table, or a parent with gaps, gets the PRAGMA.
    /// Kept for speed: cold ingest (bench.py).
    func checkForeignKeys() throws {
        let references = try query("""
            SELECT m.name AS child, f."from" AS column, f."table" AS parent
            FROM sqlite_master AS m, pragma_foreign_key_list(m.name) AS f
            WHERE m.type = 'table' ORDER BY m.name, f.id, f.seq
            """)
        var byTable: [(table: String, references: [(column: String, parent: String)])] = []
        for row in references {
            guard let table = row.string("child"), let column = row.string("column"), let parent = row.string("parent")
            else { continue }
            if byTable.last?.table != table { byTable.append((table, [])) }
            byTable[byTable.count - 1].references.append((column, parent))
        }
        // Each parent's last id when its ids are 1…n, nil when they have gaps: looked up once.
        var denseLastIDs: [String: Int64?] = [:]
        func denseLast(_ parent: String) throws -> Int64? {
            if let known = denseLastIDs[parent] { return known }
            let last = try denseLastID(parent)
            denseLastIDs[parent] = .some(last)
            return last
        }
        for (table, references) in byTable {
            // The range each reference must lie in, nil for one that is not range-checked.
            let ranges = try references.map { reference -> Int64? in
                guard Self.rangeCheckedReferences.contains(where: {
                    $0.table == table && $0.column == reference.column && $0.parent == reference.parent
                }) else { return nil }
                return try denseLast(reference.parent)
            }
            let violation: (table: String, parent: String)?
            if !ranges.contains(nil) {
                violation = try zip(references, ranges).first { reference, last in
                    try !referencesLie(in: table, reference.column, within: last!)
                }.map { (table, $0.0.parent) }
            } else {
                violation = try queryFirst("PRAGMA foreign_key_check(\(Self.quoted(table)))").map {
                    ($0.string("table") ?? table, $0.string("parent") ?? "?")
                }
            }
            if let violation {
                throw SQLiteError(extendedCode: SQLiteError.constraintForeignKey,
                                  message: "FOREIGN KEY constraint failed: a row of \(violation.table) refers to a missing row of \(violation.parent)",
                                  sql: "PRAGMA foreign_key_check")
            }
        }
    }

    /// The references checked by range: integer ids into an `INTEGER PRIMARY KEY`, which the
    /// writer's statements always write through `CAST(… AS bigint)` (``CatalogWriter``'s
    /// `linkDevices`, `insertEntitlements` and `upsertPlist`), so that every value is an integer. A
    /// REAL that is not a whole number could lie in 1…n and miss; no statement of the writer can
    /// store one.
    static let rangeCheckedReferences: [(table: String, column: String, parent: String)] = [
        ("entitlements", "profile_id", "profiles"),
        ("device_profiles", "device_id", "devices"),
        ("profile_plists", "profile_id", "profiles"),
    ]

    /// n when the ids of `table` (its `INTEGER PRIMARY KEY id`) are exactly 1…n (0 when it is
    /// empty); nil when they have gaps.
    private func denseLastID(_ table: String) throws -> Int64? {
        guard let row = try queryFirst("SELECT count(*) AS n, min(id) AS low, max(id) AS high FROM \(Self.quoted(table))"),
              let count = row.int64("n") else { return nil }
        if count == 0 { return 0 }
        guard let low = row.int64("low"), let high = row.int64("high"), low >= 1, high == count else { return nil }
        return high
    }

    /// Whether every value of `table.column` is an integer in 1…`last` (NULL refers to nothing and
    /// passes, as in SQLite). Integers sort below text and blobs, so a greatest value that is no
    /// integer means some value is none. One aggregate a query, so that each is an index lookup.
    private func referencesLie(in table: String, _ column: String, within last: Int64) throws -> Bool {
        func extreme(_ function: String) throws -> SQLValue {
            try queryFirst("SELECT \(function)(\(Self.quoted(column))) FROM \(Self.quoted(table))")?[0] ?? .null
        }
        switch (try extreme("min"), try extreme("max")) {
        case (.null, .null): return true
        case let (.integer(low), .integer(high)): return low >= 1 && high <= last
        default: return false
        }
    }

    private static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}

extension QueryExecutor {
    /// True when the catalogue holds no profile, build or file yet, of any host: the next run is its
    /// first ingest. One query both engines answer.
    func holdsNothing() throws -> Bool {
        try firstRow("""
            SELECT CASE WHEN EXISTS (SELECT 1 FROM profiles) OR EXISTS (SELECT 1 FROM builds)
                             OR EXISTS (SELECT 1 FROM files) THEN 0 ELSE 1 END AS empty
            """)?.int("empty") == 1
    }
}
