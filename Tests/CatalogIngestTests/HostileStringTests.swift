import Foundation
import Testing
@testable import CatalogIngest
@testable import CatalogStore
import CatalogTestSupport

/// Issue "reliability": hostile text inside a profile (SQL, quotes, newlines, terminal escapes,
/// emoji) is stored byte for byte as data and never executed or mangled.
@Suite(.timeLimit(.minutes(10))) struct HostileStringTests {
    static let hostile = [
        "'); DROP TABLE profiles; --",
        "Robert\"); DELETE FROM builds; -- \" ' `",
        "line one\nline two\n\tindented",
        "\u{1B}[31mred\u{1B}[0m and \u{1B}]0;title\u{07}",
        "emoji 👩‍💻🚀 and ZWJ, RTL \u{202E}txt.exe",
        "% _ \\ LIKE wildcards and a ? placeholder and :name",
    ]

    private func xmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&apos;")
    }

    /// The bare-plist fixture with its Name, TeamName and UUID replaced.
    private func profile(name: String, teamName: String, uuid: String) throws -> [UInt8] {
        var text = String(decoding: try readBytes(IngestPaths.fixtures + "/profiles/bare-plist.mobileprovision"),
                          as: UTF8.self)
        for (key, old, new) in [("Name", "Example Bare XML Plist", name), ("TeamName", "Example Corp", teamName),
                                ("UUID", "46108860-2000-4050-A219-2B0579857204", uuid)] {
            let from = "<key>\(key)</key>\n\t<string>\(old)</string>"
            #expect(text.contains(from), "fixture changed: \(key)")
            text = text.replacingOccurrences(of: from, with: "<key>\(key)</key>\n\t<string>\(xmlEscaped(new))</string>")
        }
        return Array(text.utf8)
    }

    @Test(arguments: Array(hostile.indices))
    func hostileNamesAreStoredByteForByte(index: Int) throws {
        let name = Self.hostile[index]
        let team = "Team " + name
        let uuid = String(format: "00000000-0000-4000-8000-%012d", index)
        let scratch = try Scratch()
        try scratch.write("tree/hostile.mobileprovision", try profile(name: name, teamName: team, uuid: uuid))
        try scratch.copy(IngestPaths.fixtures + "/profiles/wildcard.mobileprovision", to: "tree/other.mobileprovision")
        let db = scratch.file("catalog.sqlite")
        let report = try ingest([scratch.file("tree")], db: db)
        #expect(report.errors.isEmpty, "\(report.errors)")

        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        let row = try #require(try connection.queryFirst(
            "SELECT name, team_name, CAST(name AS BLOB) AS raw FROM profiles WHERE uuid = ?", [.text(uuid)]))
        #expect(row.string("name") == name)
        #expect(row.string("team_name") == team)
        #expect(row.blob("raw") == Array(name.utf8))
        // Every table is still there, with its rows.
        let tables = Set(try connection.strings("SELECT name FROM sqlite_master WHERE type = 'table'"))
        for table in ["profiles", "profile_locations", "builds", "certificates", "devices", "entitlements",
                      "ingest_runs", "files", "ingest_errors", "schema_migrations"] {
            #expect(tables.contains(table), "table \(table) is gone")
        }
        #expect(try connection.count("SELECT count(*) AS n FROM profiles") == 2)
        #expect(try integrityCheck(db) == "ok")
    }
}
