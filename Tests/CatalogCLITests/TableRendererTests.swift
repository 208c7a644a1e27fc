import CatalogCore
import Testing
@testable import CatalogCLI

@Suite struct TableRendererTests {
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
        #expect(lines[1].hasSuffix("AFF.mobileprovision"), "paths keep their end, the file name")
        #expect(lines[1].contains("…"))
    }

    @Test func wideTerminalsShowEverythingAndColourOnlyWhenAsked() {
        let out = TableRenderer(columns: columns, width: 300, color: false).render([record])
        #expect(out.contains("A rather long profile name that will not fit"))
        #expect(!out.contains("\u{1B}"))
        let coloured = TableRenderer(columns: columns, width: 300, color: true).render([record])
        #expect(coloured.hasPrefix("\u{1B}[1mUUID"))
    }

    @Test func relativeDays() {
        #expect(RelativeTime.days(.int(0)) == "today")
        #expect(RelativeTime.days(.int(1)) == "in 1 day")
        #expect(RelativeTime.days(.int(12)) == "in 12 days")
        #expect(RelativeTime.days(.int(-1)) == "expired 1 day ago")
        #expect(RelativeTime.days(.null) == "")
    }
}
