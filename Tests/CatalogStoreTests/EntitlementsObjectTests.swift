import CatalogCore
import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// The entitlements object the writer hands SQLite is the JSON it was before it was written into
/// one buffer: the object of each key with its value's JSON text as a string, and SQLite reads
/// back each value's text exactly.
@Suite struct EntitlementsObjectTests {
    /// What the writer built before: a JSON value per entitlement, serialized, then the object.
    private static func reference(_ entitlements: PlistDictionary) -> String {
        JSONValue.object(entitlements.map { key, value in (key, JSONValue.string(value.json.serialized())) }).serialized()
    }

    private static let samples: [PlistDictionary] = [
        PlistDictionary(),
        PlistDictionary([("application-identifier", .string("T1.com.example.app"))]),
        PlistDictionary([
            ("keychain-access-groups", .array([.string("T1.*"), .string("com.apple.token")])),
            ("get-task-allow", .bool(true)),
            ("com.apple.developer.team-identifier", .string("T1")),
            ("quote \"and\" backslash \\", .string("tab\tline\nreturn\r\u{1}\u{7F}\u{85}é")),
            ("nested", .dictionary(PlistDictionary([("a", .integer(-3)), ("b", .array([]))]))),
            ("when", .date(Date(timeIntervalSince1970: 1_700_000_000))),
            ("bytes", .data([0, 1, 2, 0xFF])),
            ("real", .real(1.5)),
        ]),
    ]

    @Test func sameTextAsBefore() {
        for sample in Self.samples {
            #expect(CatalogWriter.entitlementsObject(sample) == Self.reference(sample))
        }
    }

    @Test func sqliteReadsEachValueBack() throws {
        let sample = Self.samples[2]
        let directory = try Scratch()
        let db = try Connection(path: directory.file("json.sqlite"))
        let rows = try db.query("SELECT key, value FROM json_each(?)", [.text(CatalogWriter.entitlementsObject(sample))])
        #expect(rows.count == sample.count)
        for (row, (key, value)) in zip(rows, sample) {
            #expect(row.string("key") == key)
            #expect(row.string("value") == value.json.serialized())
        }
    }
}
