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

    /// ASCII versions take a byte path; it gives the key the character path gives, for versions
    /// built from the characters that matter (digits, zeros, dots, letters, every ASCII space).
    @Test func theASCIIPathGivesTheCharacterPathsKey() {
        let alphabet = Array("0123456789000..abZ-+ \t\n\r\u{0B}\u{0C}$(_)")
        var generator = SystemRandomNumberGenerator()
        var versions = ["", " ", ".", "..", "1.", ".1", "0", "000", "007.0", "1\r\n2", " 1.2 ", "\r\n",
                        "1.10b2", "2025.0324.1016", String(repeating: "9", count: 25) + ".01"]
        for _ in 0..<3000 {
            versions.append(String((0..<Int.random(in: 0...12, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }))
        }
        for version in versions {
            #expect(VersionOrder.sortKey(version) == VersionOrder.characterKey(version), "\(version.debugDescription)")
        }
        // Anything else takes the character path.
        #expect(VersionOrder.sortKey("1.0\u{00A0}") == VersionOrder.characterKey("1.0\u{00A0}"))
        #expect(VersionOrder.sortKey("\u{0663}.1") == VersionOrder.characterKey("\u{0663}.1"))
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
