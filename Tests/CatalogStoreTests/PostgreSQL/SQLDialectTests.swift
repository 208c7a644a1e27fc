import Testing
@testable import CatalogStore

/// The read side's SQL is written with SQLite's parameters; PostgreSQL gets them numbered.
@Suite(.timeLimit(.minutes(10))) struct SQLDialectTests {
    @Test func placeholdersAreNumberedAsSQLiteNumbersThem() {
        #expect(SQLDialect.numberedPlaceholders("a = ? AND b = ?") == "a = $1 AND b = $2")
        // ?NNN is parameter NNN; a bare ? is one more than the largest so far.
        #expect(SQLDialect.numberedPlaceholders("x = ? AND (?2 OR y = ?3) AND z = ?") == "x = $1 AND ($2 OR y = $3) AND z = $4")
        #expect(SQLDialect.numberedPlaceholders("s >= ?1 AND s <= ?1 || 'G'") == "s >= $1 AND s <= $1 || 'G'")
        // Quoted text is left alone, doubled quotes included.
        #expect(SQLDialect.numberedPlaceholders("a = '?' AND b = 'it''s ?' AND \"c?\" = ?") == "a = '?' AND b = 'it''s ?' AND \"c?\" = $1")
    }

    @Test func namedParametersAreNumberedInOrderOfFirstUse() throws {
        let (sql, values) = try SQLDialect.numberedNames(
            "SET a = :b, c = :a_1 WHERE x = :b AND y = ':a_1' AND z = v::text AND w = \":b\"",
            [":a_1": .integer(1), ":b": .text("B"), ":unused": .null])
        #expect(sql == "SET a = $1, c = $2 WHERE x = $1 AND y = ':a_1' AND z = v::text AND w = \":b\"")
        #expect(values == [.text("B"), .integer(1)])
        #expect(throws: PostgreSQLError.self) { try SQLDialect.numberedNames("a = :missing", [:]) }
    }
}
