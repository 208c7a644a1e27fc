import CatalogCore
import Foundation
import Testing
@testable import CatalogCLI

@Suite(.timeLimit(.minutes(10))) struct TableRendererTests {
    let columns = [
        Column(key: "uuid", header: "UUID"),
        Column(key: "name", header: "NAME"),
        Column(key: "days_left", header: "LEFT", display: RelativeTime.days),
        Column(key: "path", header: "PATH"),
    ]
    let record = JSONValue.object([
        ("uuid", .string("080B4AFF-C595-4955-AEED-8B8810E698FC")),
        ("name", .string("A rather long profile name that will not fit")),
        ("days_left", .int(-3)),
        ("path", .string("/Users/ci/Library/MobileDevice/Provisioning Profiles/080B4AFF.mobileprovision")),
    ])

    @Test func narrowTerminalsShortenFreeTextNeverIdentifiers() {
        let out = TableRenderer(columns: columns, width: 100, color: false).render([record])
        let lines = out.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.count <= 100 })
        #expect(lines[1].contains("080B4AFF-C595-4955-AEED-8B8810E698FC"))
        #expect(lines[1].contains("expired 3 days ago"))
        #expect(lines[1].contains("A rather long"))
        #expect(lines[1].contains("…/080B4AFF"), "paths keep the file name's start, where names differ")

        #expect(lines[1].contains("…"))
    }

    @Test func wideTerminalsShowEverythingAndColourOnlyWhenAsked() {
        let out = TableRenderer(columns: columns, width: 300, color: false).render([record])
        #expect(out.contains("A rather long profile name that will not fit"))
        #expect(!out.contains("\u{1B}"))
        let coloured = TableRenderer(columns: columns, width: 300, color: true).render([record])
        #expect(coloured.hasPrefix("\u{1B}[1mUUID"))
    }

    /// Column start positions (in display columns) of the header, which every row must share.
    static func starts(_ line: Substring) -> [Int] {
        var starts: [Int] = [0], column = 0, previous: [Character] = []
        for character in line {
            if previous.suffix(2) == [" ", " "], character != " " { starts.append(column) }
            previous.append(character)
            column += DisplayWidth.of(character)
        }
        return starts
    }

    /// The display column at which each character of `line` starts.
    static func offsets(_ line: Substring) -> [Int: Character] {
        var offsets: [Int: Character] = [:], column = 0
        for character in line {
            offsets[column] = character
            column += DisplayWidth.of(character)
        }
        return offsets
    }

    /// The cells of the column headed `header` (none when the table dropped it), by display offsets.
    static func cells(_ lines: [Substring], header: String) -> [String] {
        guard let first = lines.first, let range = first.range(of: header) else { return [] }
        let start = DisplayWidth.of(String(first[..<range.lowerBound]))
        let next = starts(first).first { $0 > start } ?? Int.max
        return lines.dropFirst().map { line in
            var cell = "", column = 0
            for character in line {
                if column >= start && column < next { cell.append(character) }
                column += DisplayWidth.of(character)
            }
            return cell.trimmingCharacters(in: .whitespaces)
        }
    }

    static let mixed: [JSONValue] = [
        ("1C481E6A-0679-4A4A-A32F-114236C93227", "红色 Team's App & Co — Ünïcødé 🚀", "com.example.unicode"),
        ("080B4AFF-C595-4955-AEED-8B8810E698FC", "Example App AdHoc", "com.example.app"),
        ("B42977C6-0000-4000-A000-000000000001", "Apple Development: 小白 金 (ZW12345678)", "com.example.app.widget"),
        ("2287606C-F62A-47E4-A366-C681B0EAC59E", "Wdrożenie Zażółć gęślą jaźń", "com.example.vision"),
    ].map { uuid, name, bundle in
        .object([("uuid", .string(uuid)), ("name", .string(name)), ("team_id", .string("TEAM123456")),
                 ("kind", .string("development")), ("bundle_id", .string(bundle)),
                 ("effective_expiration_date", .string("2027-01-15T10:00:00Z")), ("days_left", .int(56)),
                 ("path", .string("/Users/ci/Library/MobileDevice/Provisioning Profiles/\(uuid).mobileprovision"))])
    }

    static let listing = [
        Column(key: "uuid", header: "UUID"), Column(key: "name", header: "NAME"), Column(key: "team_id", header: "TEAM"),
        Column(key: "kind", header: "KIND"), Column(key: "bundle_id", header: "BUNDLE ID"),
        Column(key: "effective_expiration_date", header: "EXPIRES", display: RelativeTime.day),
        Column(key: "days_left", header: "LEFT", display: RelativeTime.days), Column(key: "path", header: "PATH"),
    ]

    @Test(arguments: [60, 100, 200])
    func tablesFitTheTerminalAndStayAlignedWithWideCharacters(width: Int) {
        let out = TableRenderer(columns: Self.listing, width: width, color: false).render(Self.mixed)
        let lines = out.split(separator: "\n")
        #expect(lines.count == Self.mixed.count + 1)
        for line in lines { #expect(DisplayWidth.of(String(line)) <= width, "\(width): \(line)") }
        let starts = Self.starts(lines[0])
        for line in lines.dropFirst() {
            let offsets = Self.offsets(line)
            for start in starts.dropFirst() {
                #expect(offsets[start] != nil && offsets[start - 1] == " " && offsets[start - 2] == " ",
                        "\(width): column at \(start) misaligned in \(line)")
            }
        }
        // Identifiers are whole or absent, never cut; bundle ids never collapse into one another.
        for line in lines.dropFirst() where line.contains("com.example") {
            #expect(line.contains("-") && line.split(separator: " ").contains { $0.count == 36 }, "the UUID stays whole: \(line)")
        }
        let bundles = Self.cells(lines, header: "BUNDLE ID")
        #expect(bundles.isEmpty || Set(bundles).count == Self.mixed.count, "\(width): \(bundles)")
        if width == 200 { #expect(out.contains("红色 Team's App & Co — Ünïcødé 🚀") && out.contains(".mobileprovision")) }
        if width == 60 { #expect(lines[0].hasPrefix("UUID") && lines[0].contains("NAME")) }
    }

    @Test func displayWidthCountsWideCharactersTwice() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("小白 金") == 7)
        #expect(DisplayWidth.of("🚀") == 2)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("Zażółć") == 6)
        #expect(DisplayWidth.fit("小白金小白金", 5) == "小白…")
        #expect(DisplayWidth.fit("/Users/ci/Library/MobileDevice/Provisioning Profiles/ABC.mobileprovision", 30, cut: .path)
                .hasSuffix("ABC.mobileprovision"))
        #expect(DisplayWidth.fit("/Users/ci/Library/MobileDevice/Provisioning Profiles/ABC.mobileprovision", 30, cut: .path)
                .hasPrefix("/Users"))
    }

    @Test func relativeDays() {
        #expect(RelativeTime.days(.int(0)) == "today")
        #expect(RelativeTime.days(.int(1)) == "in 1 day")
        #expect(RelativeTime.days(.int(12)) == "in 12 days")
        #expect(RelativeTime.days(.int(-1)) == "expired 1 day ago")
        #expect(RelativeTime.days(.null) == "")
    }

    /// Issue 52 §4: Xcode-managed names differ only at their end; shortened to their start they would
    /// all read `iOS Team Provisio…`, so those keep their end. A name that stands apart keeps its start.
    @Test func namesThatWouldReadAlikeKeepTheirEnd() {
        let columns = [Column(key: "uuid", header: "UUID"), Column(key: "name", header: "NAME")]
        let names = ["iOS Team Provisioning Profile: com.example.app", "iOS Team Provisioning Profile: com.example.app.widget",
                     "iOS Team Provisioning Profile: com.example.other", "Example Distribution For The Store"]
        let records = names.enumerated().map { index, name in
            JSONValue.object([("uuid", .string("080B4AFF-C595-4955-AEED-8B8810E698F\(index)")), ("name", .string(name))])
        }
        let lines = TableRenderer(columns: columns, width: 62, color: false).render(records).split(separator: "\n").dropFirst()
        #expect(lines.allSatisfy { $0.count <= 62 })
        let shown = lines.map { String($0.dropFirst(38)) }
        #expect(Set(shown).count == names.count, "every row tells itself apart: \(shown)")
        #expect(shown[0].hasSuffix("example.app") && shown[1].hasSuffix("app.widget") && shown[2].hasSuffix("example.other"), "\(shown)")
        #expect(shown[3].hasPrefix("Example Distribution"), "\(shown)")
    }
}
