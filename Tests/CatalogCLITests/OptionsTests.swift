import CatalogCore
import CatalogStore
import Foundation
import Testing
@testable import CatalogCLI

/// Each command's options parsed into its struct: what the flags become, and the usage errors the
/// init raises before anything is opened (their messages are what users and scripts see).
@Suite(.timeLimit(.minutes(10))) struct OptionsTests {
    /// `arguments` parsed by `command`'s own option table, as `CatalogCommand.run` does.
    func parse(_ command: any Command.Type, _ arguments: [String]) throws -> ParsedArguments {
        try ParsedArguments.parse(arguments, options: command.options, positionals: command.arguments)
    }

    func context(_ environment: [String: String] = [:]) -> CommandContext {
        CommandContext(environment: environment)
    }

    /// The message of the `UsageError` `body` throws, or nil when it throws none.
    func usageMessage(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as UsageError {
            return error.message
        } catch {
            Issue.record("expected a UsageError, got \(error)")
            return nil
        }
    }

    static let asOf = "2026-12-01T00:00:00Z"

    // MARK: - Shared query options

    @Test func queryOptionsReadTheCommonOptions() throws {
        let options = try QueryOptions(
            parse(StatsCommand.self, ["--db", "/tmp/x.sqlite", "--format", "csv", "--max-age", "36h"]), context())
        #expect(options.database == "/tmp/x.sqlite")
        #expect(options.format == .csv)
        #expect(options.maxAge == MaxAge("36h"))
        #expect(options.maxAge?.seconds == 36 * 3_600)

        let dated = try QueryOptions(parse(ShowCommand.self, ["--as-of", Self.asOf, "--json", "X"]), context())
        #expect(dated.asOf == ISO8601.parse(Self.asOf))
        #expect(dated.format == .json)
    }

    @Test func queryOptionsDefaults() throws {
        let context = context(["CATALOG_DB": "relative.sqlite", "CATALOG_MAX_AGE": "2d"])
        let options = try QueryOptions(parse(StatsCommand.self, []), context)
        #expect(options.database == FileManager.default.currentDirectoryPath + "/relative.sqlite")
        #expect(options.format == (context.stdoutIsTerminal ? .table : .json))
        // $CATALOG_MAX_AGE is read when the catalogue is opened, so commands that never open it ignore it.
        #expect(options.maxAge == nil)
        #expect(abs(options.asOf.timeIntervalSinceNow) < 60)
    }

    @Test func queryOptionsUsageErrors() throws {
        #expect(usageMessage { _ = try QueryOptions(parse(StatsCommand.self, ["--json", "--format", "csv"]), context()) }
                == "--json conflicts with --format csv")
        #expect(usageMessage { _ = try QueryOptions(parse(StatsCommand.self, ["--format", "xml"]), context()) }
                == "--format must be one of table, json, ndjson, csv, got 'xml'")
        #expect(usageMessage { _ = try QueryOptions(parse(StatsCommand.self, ["--max-age", "3"]), context()) }
                == "--max-age expects a number and a unit (s, m, h, d, w), like 36h or 2d, got '3'")
        #expect(usageMessage { _ = try QueryOptions(parse(ShowCommand.self, ["--as-of", "yesterday", "X"]), context()) }
                == "--as-of expects an ISO-8601 date like 2026-11-29 or 2026-11-29T10:00:00Z, got 'yesterday'")
    }

    // MARK: - expiring

    @Test func expiringWindowAndFlags() throws {
        let options = try ExpiringOptions(parse(ExpiringCommand.self, [
            "--days", "10", "--as-of", Self.asOf, "--team", "T1", "--kind", "ad-hoc",
            "--include-expired", "--include-superseded", "--exit-code",
        ]), context())
        #expect(options.days == 10)
        #expect(options.end == ISO8601.parse("2026-12-11T23:59:59Z"), "the last second of the tenth day")
        #expect(options.teamID == "T1")
        #expect(options.kind == .adHoc)
        #expect(options.includeExpired && options.includeSuperseded && options.exitCode)
        #expect(!options.builds && !options.allLocations)

        let defaults = try ExpiringOptions(parse(ExpiringCommand.self, ["--as-of", Self.asOf]), context())
        #expect(defaults.days == 30)
        #expect(defaults.kind == nil && !defaults.includeExpired)
    }

    /// The day rule: whole UTC days, whatever the time of `--as-of`, before 1970 too.
    @Test func daysAreWholeUTCDays() throws {
        let asOf = try #require(ISO8601.parse("2026-12-01T15:30:00Z"))
        func left(_ date: String, from now: Date? = nil) throws -> Int {
            DaysLeft.days(until: try #require(ISO8601.parse(date)), from: now ?? asOf)
        }
        #expect(try left("2026-12-01T00:00:00Z") == 0 && left("2026-12-01T23:59:59Z") == 0, "earlier or later today")
        #expect(try left("2026-12-02T00:00:00Z") == 1 && left("2026-11-30T23:59:59Z") == -1)
        #expect(try left("1969-12-31T23:59:59Z", from: ISO8601.parse("1970-01-01T00:00:00Z")) == -1)
        #expect(DaysLeft.start(asOf) == ISO8601.parse("2026-12-01T00:00:00Z"))
        #expect(DaysLeft.end(0, after: asOf) == ISO8601.parse("2026-12-01T23:59:59Z"))
        let options = try ExpiringOptions(parse(ExpiringCommand.self, ["--days", "64", "--as-of", "2026-11-29T22:15:00Z"]), context())
        #expect(options.start == ISO8601.parse("2026-11-29T00:00:00Z") && options.end == ISO8601.parse("2027-02-01T23:59:59Z"))
    }

    @Test func expiringUsageErrors() throws {
        for option in [["--kind", "development"], ["--all-locations"], ["--include-superseded"]] {
            #expect(usageMessage { _ = try ExpiringOptions(parse(ExpiringCommand.self, ["--builds"] + option), context()) }
                    == "\(option[0]) does not apply to --builds")
        }
        // Even a kind that is not one: --builds takes none at all.
        #expect(usageMessage { _ = try ExpiringOptions(parse(ExpiringCommand.self, ["--builds", "--kind", "x"]), context()) }
                == "--kind does not apply to --builds")
        #expect(usageMessage { _ = try ExpiringOptions(parse(ExpiringCommand.self, ["--kind", "x"]), context()) }
                == "--kind must be one of development, ad-hoc, app-store, enterprise, developer-id (or fastlane's adhoc, "
                + "appstore, developer_id), got 'x'")
        // fastlane's and match's spellings (issue 52 §8).
        for (typed, kind) in [("adhoc", ProfileKind.adHoc), ("appstore", .appStore), ("developer_id", .developerID),
                              ("development", .development), ("enterprise", .enterprise), ("AdHoc", .adHoc)] {
            #expect(try ExpiringOptions(parse(ExpiringCommand.self, ["--kind", typed]), context()).kind == kind, "\(typed)")
        }
        #expect(usageMessage { _ = try ExpiringOptions(parse(ExpiringCommand.self, ["--days", "36501"]), context()) }
                == "--days expects a whole number from 0 to 36500, got '36501'")
    }

    // MARK: - profiles

    @Test func profilesFilter() throws {
        let options = try ProfilesOptions(parse(ProfilesCommand.self, [
            "--bundle-id", "com.x.app", "--exact", "--valid", "--current", "--entitlement", "get-task-allow=true",
            "--signature", "unchecked", "--installed", "--certificate", "Jane", "--limit", "5", "--as-of", Self.asOf,
        ]), context())
        let filter = options.filter
        #expect(filter.bundleID == "com.x.app" && filter.exactBundleID)
        #expect(filter.expired == false && filter.superseded == false)
        #expect(filter.entitlementKey == "get-task-allow" && filter.entitlementValue == "true")
        #expect(filter.signatureUnchecked && filter.signature == nil)
        #expect(filter.scope == .installed)
        #expect(filter.limit == 5)
        #expect(filter.now == ISO8601.parse(Self.asOf))
        // Resolved against the catalogue later, so kept as typed.
        #expect(options.certificate == "Jane" && filter.certificateSHA1s == nil)

        let removed = try ProfilesOptions(parse(ProfilesCommand.self, ["--removed", "--platform", "OSX"]), context())
        #expect(removed.filter.scope == .removed)
        #expect(removed.filter.platform == .macOS)
    }

    @Test func profilesUsageErrors() throws {
        let cases: [([String], String)] = [
            (["--expired", "--valid"], "--expired and --valid exclude each other"),
            (["--superseded", "--current"], "--superseded and --current exclude each other"),
            (["--exact"], "--exact goes with --bundle-id"),
            (["--removed", "--include-removed"], "--removed and --include-removed exclude each other"),
            (["--installed", "--removed"], "--installed lists present profiles: it excludes --removed and --include-removed"),
            (["--limit", "0"], "--limit expects a whole number from 1 to 2147483647, got '0'"),
        ]
        for (arguments, message) in cases {
            #expect(usageMessage { _ = try ProfilesOptions(parse(ProfilesCommand.self, arguments), context()) } == message,
                    "\(arguments)")
        }
    }

    // MARK: - certificates, builds, report, prune, decode

    @Test func certificatesFilter() throws {
        let options = try CertificatesOptions(parse(CertificatesCommand.self, [
            "--expiring", "--days", "7", "--as-of", Self.asOf, "--type", "apple-development", "--type", "iPhone Developer",
            "--expired",
        ]), context())
        #expect(options.filter.notAfterFrom == ISO8601.parse(Self.asOf))
        #expect(options.filter.notAfterTo == ISO8601.parse("2026-12-08T23:59:59Z"))
        #expect(options.filter.types == [.appleDevelopment, .iPhoneDeveloper])
        #expect(options.filter.expired == true)

        #expect(usageMessage { _ = try CertificatesOptions(parse(CertificatesCommand.self, ["--days", "3"]), context()) }
                == "--days needs --expiring")
        #expect(usageMessage { _ = try CertificatesOptions(parse(CertificatesCommand.self, ["--expired", "--valid"]), context()) }
                == "--expired and --valid exclude each other")
        #expect(usageMessage { _ = try CertificatesOptions(parse(CertificatesCommand.self, ["--type", "nope"]), context()) }?
            .hasPrefix("--type must be one of apple-development, ") == true)
    }

    @Test func buildsFilter() throws {
        let options = try BuildsOptions(parse(BuildsCommand.self, [
            "com.x.app", "--version", "1.2", "--since", "2025-01-01", "--include-removed", "--limit", "3",
        ]), context())
        #expect(options.filter.bundleID == "com.x.app")
        #expect(options.filter.shortVersion == "1.2")
        #expect(options.filter.since == ISO8601.parse("2025-01-01"))
        #expect(options.filter.presence == .any)
        #expect(options.filter.limit == 3)
        #expect(usageMessage { _ = try BuildsOptions(parse(BuildsCommand.self, ["--since", "soon"]), context()) }
                == "--since expects an ISO-8601 date like 2026-11-29 or 2026-11-29T10:00:00Z, got 'soon'")
    }

    @Test func reportOutput() throws {
        #expect(try ReportOptions(parse(ReportCommand.self, []), context()).output == .markdown)
        #expect(try ReportOptions(parse(ReportCommand.self, ["--format", "html"]), context()).output == .html)
        #expect(try ReportOptions(parse(ReportCommand.self, ["--html", "/tmp/r.html"]), context()).output == .htmlFile("/tmp/r.html"))
        #expect(try ReportOptions(parse(ReportCommand.self, []), context()).days == 90)
        #expect(usageMessage { _ = try ReportOptions(parse(ReportCommand.self, ["--html", "r.html", "--format", "html"]), context()) }
                == "--html writes a file; it excludes --format")
        #expect(usageMessage { _ = try ReportOptions(parse(ReportCommand.self, ["--days", "0"]), context()) }
                == "--days expects a whole number from 1 to 3650, got '0'")
    }

    @Test func pruneModeAndReasons() throws {
        let dry = try PruneOptions(parse(PruneCommand.self, []), context())
        #expect(dry.mode == .dryRun && dry.expired && dry.superseded)
        let trash = try PruneOptions(parse(PruneCommand.self, ["--apply", "--expired", "/tmp"]), context())
        #expect(trash.mode == .trash && trash.expired && !trash.superseded)
        #expect(trash.paths == ["/tmp"])
        #expect(try PruneOptions(parse(PruneCommand.self, ["--delete"]), context()).mode == .delete)
        #expect(usageMessage { _ = try PruneOptions(parse(PruneCommand.self, ["--apply", "--delete"]), context()) }
                == "--apply (trash) and --delete exclude each other")
    }

    @Test func decodeFormat() throws {
        #expect(try DecodeOptions(parse(DecodeCommand.self, ["a"]), context()).format == .json)
        #expect(try DecodeOptions(parse(DecodeCommand.self, ["--format", "table", "a", "b"]), context()).paths == ["a", "b"])
        #expect(usageMessage { _ = try DecodeOptions(parse(DecodeCommand.self, ["--json", "--format", "table", "a"]), context()) }
                == "--json conflicts with --format table")
        #expect(usageMessage { _ = try DecodeOptions(parse(DecodeCommand.self, ["--format", "csv", "a"]), context()) }
                == "--format must be one of json, table, got 'csv'")
    }
}
