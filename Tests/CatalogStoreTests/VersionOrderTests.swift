import CatalogTestSupport
import Testing
@testable import CatalogStore

@Suite struct VersionOrderTests {
    @Test(arguments: [
        ("1.9", "1.10"),
        ("2025.0101.9", "2025.0324.1016"),
        ("1.0", "1.0.1"),
        ("1", "1.0"),
        ("0.9.9", "1.0"),
        ("9", "10"),
        ("99", "100"),
        ("1.2", "1.a"),
        ("1.0", "1.0b2"),
        ("1.0b2", "1.0b10"),
        ("1.0b10", "1.1"),
        ("1.0alpha", "1.0beta"),
        ("", "0"),
        ("9999999999", "10000000000"),
        ("202503241016", "202503241017"),
    ])
    func sortsBefore(_ lower: String, _ higher: String) {
        #expect(VersionOrder.sortKey(lower) < VersionOrder.sortKey(higher), "\(lower) < \(higher)")
    }

    @Test func equalNumbersGiveEqualKeys() {
        #expect(VersionOrder.sortKey("2025.0324") == VersionOrder.sortKey("2025.324"))
        #expect(VersionOrder.sortKey(" 1.2 ") == VersionOrder.sortKey("1.2"))
    }

    @Test func theKeyIsReadable() {
        #expect(VersionOrder.sortKey("1.10b2") == "00000000000000000001.00000000000000000010b00000000000000000002")
    }

    @Test func sqliteOrdersByTheKey() throws {
        let directory = try Scratch()
        let connection = try Connection(path: directory.file("db.sqlite"))
        try connection.execute("CREATE TABLE v (version TEXT, sort TEXT)")
        let ordered = ["0.9", "1.0", "1.0.1", "1.2", "1.9", "1.10", "1.10.3", "2.0", "10.0", "2025.0101.9",
                       "2025.0324.1016"]
        for version in ordered.reversed() {
            try connection.execute("INSERT INTO v VALUES (?, ?)", [.text(version), .text(VersionOrder.sortKey(version))])
        }
        #expect(try connection.query("SELECT version FROM v ORDER BY sort").compactMap { $0.string("version") } == ordered)
    }
}
