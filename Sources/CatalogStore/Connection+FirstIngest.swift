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
    /// the rows are in — sorting each index once costs less than updating it row by row (a cold
    /// ingest of 11,769 files: 1.8 s → 1.45 s + 0.13 s to build them). Nothing when the catalogue
    /// is not empty. The drop is part of the transaction: a run that fails or is killed rolls it
    /// back with everything else.
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
    /// temporary files; with the run's `temp_store = MEMORY` those files were memory, and building
    /// the device-link index of 100,000 profiles took the ingest's peak RSS from 143 to 270 MB. The
    /// runs go to temporary files on disk instead: peak RSS 175 MB, in the same time (22.0 s
    /// against 22.3–24.8 s).
    func createIndexes(_ definitions: [String]) throws {
        guard !definitions.isEmpty else { return }
        // SQLite refuses the switch inside a transaction once the temporary database is open; the
        // run uses none, and if one ever did the builds would sort in memory as before, not fail.
        _ = try? query("PRAGMA temp_store = FILE")
        defer { _ = try? query("PRAGMA temp_store = MEMORY") }
        for sql in definitions { try execute(sql) }
    }

    /// Before the transaction of a run into a catalogue that holds nothing yet: switches foreign-key
    /// enforcement off (it cannot change inside a transaction), so that the 292,000 device links of
    /// the benchmark tree are not each checked against two tables as they are inserted (its cold
    /// ingest: 3.6 s → 3.4 s). ``checkForeignKeys()`` checks everything once before the run
    /// commits, so what is stored is held to the same rule. Returns whether it did; the caller
    /// switches enforcement back on after the transaction, however it ended.
    func deferForeignKeysIfEmpty() throws -> Bool {
        guard !isInTransaction, try holdsNothing() else { return false }
        try execute("PRAGMA foreign_keys = OFF")
        return true
    }

    /// Every reference in the catalogue resolves, else the run fails with SQLite's foreign-key
    /// constraint error naming the table: what enforcement would have refused row by row.
    func checkForeignKeys() throws {
        if let violation = try queryFirst("PRAGMA foreign_key_check") {
            let table = violation.string("table") ?? "?", parent = violation.string("parent") ?? "?"
            throw SQLiteError(extendedCode: SQLiteError.constraintForeignKey,
                              message: "FOREIGN KEY constraint failed: a row of \(table) refers to a missing row of \(parent)",
                              sql: "PRAGMA foreign_key_check")
        }
    }
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
