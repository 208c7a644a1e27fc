import Testing
@testable import CatalogStore

/// Lookups by name compare a length and eight bytes before whole names: names that agree on both
/// still resolve to their own column, the first of two equal names wins, and a name that is not
/// there is nil (so the row's value is NULL).
@Suite struct ColumnNamesTests {
    @Test func findsEachNameItsOwnColumn() {
        let names = ["uuid", "expiration_date", "expiration_dust", "expiry_cause", "effective_expiration_date",
                     "a", "", "ab", "uuid", "é_name", "host"]
        let columns = ColumnNames(names)
        #expect(columns.position(of: "uuid") == 0)
        #expect(columns.position(of: "expiration_date") == 1)
        #expect(columns.position(of: "expiration_dust") == 2)
        #expect(columns.position(of: "expiry_cause") == 3)
        #expect(columns.position(of: "effective_expiration_date") == 4)
        #expect(columns.position(of: "a") == 5)
        #expect(columns.position(of: "") == 6)
        #expect(columns.position(of: "ab") == 7)
        #expect(columns.position(of: "é_name") == 9)
        #expect(columns.position(of: "host") == 10)
        for missing in ["UUID", "expiration_dat", "expiration_datf", "abc", "hos", "effective_expiration_date_"] {
            #expect(columns.position(of: missing) == nil, "\(missing)")
        }
    }

    @Test func rowsReadTheirValuesByName() {
        let row = Row(columns: ["id", "name", "id"], values: [.integer(7), .text("x"), .integer(8)])
        #expect(row.int64("id") == 7)
        #expect(row.string("name") == "x")
        #expect(row["missing"] == .null)
        #expect(row == Row(columns: ["id", "name", "id"], values: [.integer(7), .text("x"), .integer(8)]))
        #expect(row != Row(columns: ["id", "label", "id"], values: [.integer(7), .text("x"), .integer(8)]))
    }
}
