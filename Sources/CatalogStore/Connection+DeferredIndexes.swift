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
        let empty = try queryFirst("""
            SELECT NOT EXISTS (SELECT 1 FROM profiles) AND NOT EXISTS (SELECT 1 FROM builds)
               AND NOT EXISTS (SELECT 1 FROM files) AS empty
            """)?.bool("empty") ?? false
        guard empty else { return [] }
        let indexes = try query(Self.secondaryIndexes).compactMap { row -> (String, String)? in
            guard let name = row.string("name"), let sql = row.string("sql") else { return nil }
            return (name, sql)
        }
        for (name, _) in indexes { try execute("DROP INDEX \"\(name.replacingOccurrences(of: "\"", with: "\"\""))\"") }
        return indexes.map(\.1)
    }

    /// Builds the indexes ``dropSecondaryIndexesIfEmpty()`` dropped, from their definitions.
    func createIndexes(_ definitions: [String]) throws {
        for sql in definitions { try execute(sql) }
    }
}
