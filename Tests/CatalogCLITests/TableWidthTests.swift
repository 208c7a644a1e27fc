import CatalogCore
import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogCLI

/// Tables on an ordinary terminal: every line fits at 80, 100, 120 and 200 columns, and each
/// command keeps what it answers (when, what and why for `expiring`, expiry and team for
/// `profiles`, the build numbers of `versions`, a run's errors, a renewal's relation).
@Suite(.timeLimit(.minutes(10))) struct TableWidthTests {
    typealias Catalogue = QueryCommandTests.Catalogue
    static let widths = [80, 100, 120, 200]
    static let renewed = "4AA98B40-F571-4848-AF74-0DF1523AE283"
    static let asOf = ["--as-of", "2026-11-20"]

    /// Every table command, with the headers it keeps at every width.
    static var commands: [(arguments: [String], keeps: [String])] {
        let fixtures = CatalogProcess.fixtures
        let window = ["--days", "400"] + asOf
        return [
            (["expiring"] + window, ["TYPE", "EXPIRES", "LEFT", "BY", "TEAM", "NAME"]),
            // Issue 52 §4: TEAM before free text; at 80, beside `expired 4567 days ago`, the name goes first.
            (["expiring", "--include-expired", "--include-superseded", "--all-locations"] + window, ["TYPE", "EXPIRES", "LEFT", "BY", "TEAM"]),
            (["expiring", "--builds", "--include-expired"] + window, ["EXPIRES", "LEFT", "BUNDLE ID", "VERSION"]),
            (["profiles"] + asOf, ["UUID", "NAME", "TEAM", "EXPIRES"]),
            (["profiles", "--bundle-id", "com.example.app"] + asOf, ["UUID", "NAME", "TEAM", "EXPIRES"]),
            (["builds", "--include-removed"] + asOf, ["BUNDLE ID", "VERSION", "LAUNCHES UNTIL", "SIGNING"]),
            (["versions", "com.example.app"], ["VERSION", "BUILDS", "LAUNCHES UNTIL"]),
            (["certificates"] + asOf, ["NAME", "EXPIRES", "LEFT"]),
            (["devices"], ["UDID", "PROFILES"]),
            (["devices", "cf2a7c46a4133dc358388825e5778ad368eb9c0d"] + asOf, ["UUID", "NAME", "BUNDLE ID", "VERSION"]),
            (["runs"], ["RUN", "STATUS", "STARTED", "ERRORS"]),
            (["errors"], ["PATH", "ERROR"]),
            (["show", "080B4AFF-C595-4955-AEED-8B8810E698FC"] + asOf,
             ["effective_expiration_date", "NAME", "EXPIRES", "LEFT", "PATH", "SIGNING"]),
            (["show", renewed] + asOf, ["RELATION", "UUID", "EXPIRES"]),
            (["stats"], ["profiles", "last_run"]),
            (["verify", fixtures + "/profiles/ios-adhoc.mobileprovision", fixtures + "/malformed/garbage.mobileprovision"],
             ["SIGNATURE", "PATH", "REASON"]),
            (["prune", fixtures + "/renewals", fixtures + "/profiles", "--expired", "--superseded"] + asOf, ["ACTION", "PATH", "WHY"]),
            (["decode", "--format", "table", fixtures + "/ipa/Example.ipa", fixtures + "/profiles/ios-adhoc.mobileprovision"],
             ["certificates", "NAME", "EXPIRES", "LEFT"]),
        ]
    }

    /// util-linux `script -qec CMD FILE` gives the command a pseudo-terminal (BSD's takes other
    /// flags), `COLUMNS` its width; stderr stays out of it.
    static let hasLinuxScript = CatalogProcess.hasLinuxScript

    static func onTerminal(_ arguments: [String], columns: Int) throws -> String {
        try CatalogProcess.onTerminal(arguments, columns: columns)
    }

    @Test(.enabled(if: hasLinuxScript, "needs util-linux script(1) for a pseudo-terminal"), arguments: widths)
    func everyTableCommandFitsTheTerminal(width: Int) throws {
        let catalogue = try Catalogue()
        for (arguments, keeps) in Self.commands {
            let database = arguments[0] == "decode" ? [] : ["--db", catalogue.db]
            let text = try Self.onTerminal(arguments + database, columns: width)
            let lines = text.split(separator: "\n")
            #expect(lines.count >= 2, "\(arguments) at \(width): \(text)")
            for line in lines {
                #expect(DisplayWidth.of(String(line)) <= width, "\(arguments) at \(width): \(line)")
            }
            // Headers as whole words of some line (a table's header or an inspect view's label).
            let words = Set(lines.flatMap { $0.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) } })
            for header in keeps {
                #expect(words.contains(header), "\(arguments) at \(width) lost \(header):\n\(text)")
            }
        }
    }

    /// The same fit from each command's own columns, on every platform: the fixtures' JSON rows
    /// rendered at each width.
    @Test func listingsFitFromTheirColumns() throws {
        let catalogue = try Catalogue()
        let listings: [([String], [Column], [String])] = [
            (["expiring", "--days", "400"] + Self.asOf, ExpiringCommand.columns, ["TYPE", "EXPIRES", "LEFT", "BY", "NAME"]),
            (["expiring", "--builds", "--days", "400"] + Self.asOf, ExpiringCommand.buildColumns, ["EXPIRES", "LEFT", "BUNDLE ID"]),
            (["profiles"] + Self.asOf, QuerySupport.profileColumns, ["UUID", "NAME", "TEAM", "EXPIRES"]),
            (["builds"] + Self.asOf, BuildsCommand.columns, ["BUNDLE ID", "VERSION", "LAUNCHES UNTIL"]),
            (["versions", "com.example.app"], VersionsCommand.columns, ["VERSION", "BUILDS"]),
            (["certificates"] + Self.asOf, CertificatesCommand.columns, ["NAME", "EXPIRES", "LEFT"]),
            (["devices"], DevicesCommand.columns, ["UDID", "PROFILES"]),
            (["runs"], RunsCommand.columns, ["RUN", "STATUS", "ERRORS"]),
            (["errors"], ErrorsCommand.columns, ["PATH", "ERROR"]),
        ]
        for (arguments, columns, keeps) in listings {
            let json = try catalogue.run(arguments + ["--json"]).stdout
            let records = try JSONDecoder().decode([JSONValue].self, from: Data(json.utf8))
            #expect(!records.isEmpty, "\(arguments)")
            for width in Self.widths {
                let lines = TableRenderer(columns: columns, width: width, color: false).render(records).split(separator: "\n")
                #expect(lines.count == records.count + 1)
                for line in lines { #expect(DisplayWidth.of(String(line)) <= width, "\(arguments) at \(width): \(line)") }
                let headers = Set(lines[0].components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) })
                for header in keeps { #expect(headers.contains(header), "\(arguments) at \(width): \(lines[0])") }
            }
        }
    }

    /// `expiring` mixes profiles and certificates: when, what and why stay; the name is shortened
    /// before any of them goes, and the UUID long before.
    @Test(arguments: widths)
    func expiringKeepsWhenWhatAndWhy(width: Int) {
        let rows: [JSONValue] = [
            .object([("type", .string("profile")), ("uuid", .string("080B4AFF-C595-4955-AEED-8B8810E698FC")),
                     ("name", .string("iOS Team Provisioning Profile: com.example.some.rather.long.app")),
                     ("team_id", .string("TEAM123456")), ("kind", .string("development")),
                     ("effective_expiration_date", .string("2026-12-01T10:00:00Z")), ("expiry_cause", .string("certificate")),
                     ("days_left", .int(11))]),
            .object([("type", .string("certificate")), ("sha1", .string("EE7D8F620A59A3292183F824112F8EB38A4E9A6F")),
                     ("common_name", .string("Developer ID Application: Example Corporation International (TEAM123456)")),
                     ("certificate_type", .string("Developer ID Application")), ("team_id", .string("TEAM123456")),
                     ("not_after", .string("2027-01-23T10:00:00Z")), ("days_left", .int(64)), ("profile_count", .int(3))]),
        ]
        let lines = TableRenderer(columns: ExpiringCommand.columns, width: width, color: false).render(rows).split(separator: "\n")
        for line in lines { #expect(DisplayWidth.of(String(line)) <= width, "\(width): \(line)") }
        let header = lines[0].components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(["TYPE", "EXPIRES", "LEFT", "BY", "NAME"].allSatisfy(header.contains), "\(width): \(lines[0])")
        #expect(lines[1].contains("profile") && lines[1].contains("certificate") && lines[1].contains("in 11 days"))
        #expect(lines[2].hasPrefix("certificate") && lines[2].contains("in 64 days"))
        #expect(header.contains("UUID / SHA-1") == (width >= 120), "\(width): \(lines[0])")
    }

    /// A list is shortened to its first items and its count, not dropped.
    @Test func listsAreShortenedNotDropped() {
        let row = JSONValue.object([
            ("short_version", .string("1.2")), ("build_numbers", .strings((1...9).map { "2026.0\($0).15.1200" })),
            ("first_seen", .string("2026-11-01T10:00:00Z")), ("last_seen", .string("2026-11-20T10:00:00Z")),
            ("first_archived_at", .string("2026-11-01T10:00:00Z")), ("last_archived_at", .string("2026-11-20T10:00:00Z")),
            ("launches_until", .string("2027-01-15T10:00:00Z")),
        ])
        for width in Self.widths {
            let lines = TableRenderer(columns: VersionsCommand.columns, width: width, color: false).render([row]).split(separator: "\n")
            for line in lines { #expect(DisplayWidth.of(String(line)) <= width, "\(width): \(line)") }
            #expect(lines[0].contains("BUILDS") && lines[0].contains("LAUNCHES UNTIL"), "\(width): \(lines[0])")
            #expect(lines[1].contains("2026.01.15.1200, "), "\(width): \(lines[1])")
            #expect(lines[1].contains(", … (9)"), "\(width): \(lines[1])")
        }
    }

    /// Paths keep the parts that tell the rows apart, not the folder and file name they share.
    @Test func pathsKeepWhatDiffers() {
        let root = "/Users/ci/Library/Developer/Xcode/Archives/2026-11-20"
        let paths = ["Example 2026-11-20 10.00.xcarchive", "Example 2026-11-20 11.30.xcarchive", "Widget 2026-11-20 12.15.xcarchive"]
            .map { "\(root)/\($0)/Products/Applications/Example.app/embedded.mobileprovision" }
        let cut = PathCut(paths)
        for width in [24, 36, 48] {
            let shown = paths.map { cut.fit($0, width) }
            #expect(Set(shown).count == paths.count, "\(width): \(shown)")
            for text in shown { #expect(DisplayWidth.of(text) <= width, "\(width): \(text)") }
        }
        #expect(cut.fit(paths[1], 48) == "…/Example 2026-11-20 11.30.xcarchive/…", "\(cut.fit(paths[1], 48))")
        let profiles = ["080B4AFF-C595-4955-AEED-8B8810E698FC", "4C8FEABD-CB00-430B-A481-B35AEC317985"]
            .map { "/Users/ci/Library/MobileDevice/Provisioning Profiles/\($0).mobileprovision" }
        #expect(PathCut(profiles).fit(profiles[0], 60) == "…/080B4AFF-C595-4955-AEED-8B8810E698FC.mobileprovision")
        // A file name too long alone keeps its start and its extension.
        #expect(PathCut(profiles).fit(profiles[1], 30) == "…/4C8FEABD-CB….mobileprovision", "\(PathCut(profiles).fit(profiles[1], 30))")
        // Inside an archive `!` separates too: the .ipa's name stays.
        let ipa = ["/ci/out/Example.ipa!Payload/Example.app/embedded.mobileprovision",
                   "/ci/out/Other.ipa!Payload/Example.app/embedded.mobileprovision"]
        #expect(PathCut(ipa).fit(ipa[1], 20) == "…/Other.ipa!…", "\(PathCut(ipa).fit(ipa[1], 20))")
    }

    /// `show`'s lists are tables of their own: renewals keep RELATION, every line fits, and a
    /// digest too long beside its label starts on the next line, whole.
    @Test(arguments: widths)
    func inspectViewsFit(width: Int) {
        let object = JSONValue.object([
            ("uuid", .string("4AA98B40-F571-4848-AF74-0DF1523AE283")),
            ("application_identifier_prefixes", .strings(["TEAM123456"])),
            ("sha256", .string("17F15CEAF4399711D03849A1EDF84CC419FD45EBC9D8961E0ECE3CC9E815AFA2")),
            ("signature_reason", .string("chain ends at self-signed 'Catalog Test WWDR CA' (SHA-256 9E30ED6E260DC5FC1D541B45181E90B55C000B1D37823099E491AA2D28A100FC), which is not a pinned root")),
            ("entitlements", .object([("com.apple.developer.associated-domains", .strings((1...8).map { "applinks:service\($0).example.com" }))])),
            ("certificates", .array([.object([("common_name", .string("Apple Distribution: Example Corp (TEAM123456)")),
                                               ("certificate_type", .string("Apple Distribution")),
                                               ("not_after", .string("2027-11-20T14:29:59Z")),
                                               ("sha1", .string("EE7D8F620A59A3292183F824112F8EB38A4E9A6F"))])])),
            ("renewals", .array([.object([("uuid", .string("44C6C3D6-6720-46AD-AD64-9FC192DFFA1E")),
                                           ("name", .string("Example Renew AdHoc with a name long enough to be shortened")),
                                           ("effective_expiration_date", .string("2026-12-01T10:00:00Z")),
                                           ("relation", .string("older"))])])),
        ])
        let now = ISO8601.parse("2026-11-20T00:00:00Z")
        let text = InspectView(now: now, color: false).render(object, width: width)
        let lines = text.split(separator: "\n")
        for line in lines { #expect(DisplayWidth.of(String(line)) <= width, "\(width): \(line)") }
        #expect(lines.contains { $0.contains("RELATION") && $0.contains("UUID") }, "\(width): \(text)")
        #expect(lines.contains { $0.contains("older") && $0.contains("44C6C3D6-6720-46AD-AD64-9FC192DFFA1E") })
        #expect(lines.contains { $0.contains("17F15CEAF4399711D03849A1EDF84CC419FD45EBC9D8961E0ECE3CC9E815AFA2") }, "digest whole")
        // `decode` gives no days_left: the view counts it from not_after.
        #expect(lines.contains { $0.contains("2027-11-20") && $0.contains("in 365 days") }, "\(width): \(text)")
        #expect(text.contains("applinks:service8.example.com"), "a long value continues, nothing is lost")
    }
}

/// Issue 52 §3: cron mail can be narrowed. Tables honour `COLUMNS` when stdout is not a terminal,
/// and `--width N` (0: no limit) wins; help wraps at the width.
@Suite(.timeLimit(.minutes(10))) struct CronWidthTests {
    typealias Catalogue = QueryCommandTests.Catalogue

    static func widest(_ text: String) -> Int { text.split(separator: "\n").map(\.count).max() ?? 0 }

    @Test func columnsAndWidthNarrowTablesOffATerminal() throws {
        let catalogue = try Catalogue()
        let command = ["expiring", "--format", "table", "--as-of", "2026-11-20", "--days", "60"]
        let unlimited = try catalogue.run(command)
        #expect(Self.widest(unlimited.stdout) > 100, "off a terminal with no COLUMNS, no limit")
        let columns = try catalogue.run(command, environment: ["COLUMNS": "80"])
        #expect(Self.widest(columns.stdout) <= 80, "\(columns.stdout)")
        let width = try catalogue.run(command + ["--width", "90"], environment: ["COLUMNS": "200"])
        #expect(Self.widest(width.stdout) <= 90 && Self.widest(width.stdout) > 80)
        let none = try catalogue.run(command + ["--width", "0"], environment: ["COLUMNS": "80"])
        #expect(Self.widest(none.stdout) == Self.widest(unlimited.stdout))
        // As a global option too, and JSON is never cut.
        #expect(Self.widest(try catalogue.run(["--width", "80"] + command).stdout) <= 80)
        #expect(try catalogue.run(["expiring", "--json", "--width", "40", "--as-of", "2026-11-20"]).stdout
                == (try catalogue.run(["expiring", "--json", "--as-of", "2026-11-20"]).stdout))
        #expect(try catalogue.run(command + ["--width", "wide"]).status == 64)
    }

    @Test func helpWrapsAtTheWidth() throws {
        for command in [[], ["ingest"], ["expiring"], ["verify"], ["crash"], ["report"], ["prune"], ["builds"], ["devices"]] {
            let help = try CatalogProcess.run(command + ["--help"], environment: ["COLUMNS": "80"])
            #expect(help.status == 0)
            let long = help.stdout.split(separator: "\n").filter { $0.count > 80 }
            #expect(long.isEmpty, "\(command): \(long)")
        }
    }
}
