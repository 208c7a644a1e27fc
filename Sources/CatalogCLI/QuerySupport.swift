import CatalogCore
import CatalogStore
import Foundation

/// What the query commands share: the catalogue option, the output options, opening the catalogue
/// read-only and printing records.
enum QuerySupport {
    static let commonOptions: [any OptionHandle] = [CatalogueLocation.option] + OutputFormat.options + [MaxAge.option]

    static let asOfOption = ValueOption(name: "as-of", value: "date",
                                        help: "Count days from this ISO-8601 date's UTC day instead of today's (reproducible reports).")

    static let hostOption = HostName.option(help: "Only what is on this build host (any case): its locations, builds, runs\nand errors. A one-host catalogue needs none.")

    /// `--host NAME`, a name as `ingest --host` accepts (``HostName``); an empty one is a usage error
    /// (a one-host catalogue's own host is unnamed, and its rows are all there is). Unlike `ingest`,
    /// a query does not read `$CATALOG_HOST`: a build host's lookups see the whole fleet.
    static func host(_ arguments: ParsedArguments) throws -> String? {
        guard let host = arguments.value(hostOption) else { return nil }
        guard !host.isEmpty else {
            throw UsageError(message: "--host needs a host name (a catalogue of one unnamed host needs no --host)")
        }
        return try HostName.checked(host, from: "--host")
    }

    /// The catalogue, read-only, once it is known to be fresh enough: past `--max-age` (or
    /// `$CATALOG_MAX_AGE`) a query fails rather than answer from a dead nightly job's data; a table
    /// on a terminal says so on stderr once the catalogue is a week old.
    static func queries(_ options: QueryOptions, _ context: CommandContext) throws -> CatalogQueries {
        try queries(at: options.database, maxAge: options.maxAge,
                    showsTable: context.stdoutIsTerminal && options.format == .table, host: options.host, context)
    }

    /// ``queries(_:_:)`` for a command with other output options (`report`). With `host` (a query's
    /// `--host`), the answer is as old as that host's last successful ingest, not the newest of any
    /// host: a fleet host whose nightly job died is noticed even while the others keep ingesting.
    static func queries(at path: String, maxAge option: MaxAge?, showsTable: Bool, host: String? = nil,
                        _ context: CommandContext) throws -> CatalogQueries {
        let queries = try Catalogue.openQueries(path)
        let maxAge = try MaxAge.resolve(option, context.environment)
        guard maxAge != nil || showsTable else { return queries }
        let last = try queries.lastSuccessfulIngest(host: host)
        let age = last.map { Date().timeIntervalSince($0) }
        if let maxAge, age.map({ $0 > Double(maxAge.seconds) }) ?? true {
            let when = last.map { "last ingested successfully at \(ISO8601.format($0)) (\(MaxAge.describe(age ?? 0)) ago)" }
                ?? "never ingested successfully"
            let subject = host.map { "host '\($0)' of the catalogue \(path)" } ?? "the catalogue \(path)"
            throw CLIError("\(subject) is stale: \(when), more than --max-age \(maxAge.text)")
        }
        if showsTable, let age, age > MaxAge.noticeAfter {
            let subject = host.map { "host '\($0)'" } ?? "the catalogue"
            context.err("note: \(subject) was last ingested \(MaxAge.describe(age)) ago (\(ISO8601.format(last ?? Date())))\n")
        }
        return queries
    }

    /// Prints rows already collected, the way ``stream(columns:keys:_:_:_:)`` prints them; CSV's
    /// columns are `keys` when given, else every key of the rows.
    static func print(_ records: [JSONValue], columns: [Column], keys: [String]? = nil, _ options: QueryOptions,
                      _ context: CommandContext) {
        let keys = options.format == .csv ? keys ?? CSVRenderer.keys(of: records) : []
        var stream = RowStream(format: options.format, columns: columns, keys: keys, context: context)
        for record in records { stream.write(record) }
        stream.finish()
    }

    /// Prints the rows `produce` hands to its stream as they come (see ``RowStream``); returns how
    /// many there were. `keys` are CSV's columns, known before the first row: the JSON keys of
    /// every kind of row the stream may carry.
    @discardableResult
    static func stream(columns: [Column], keys: [String], _ options: QueryOptions, _ context: CommandContext,
                       _ produce: (inout RowStream) throws -> Void) throws -> Int {
        var stream = RowStream(format: options.format, columns: columns, keys: keys, context: context)
        try produce(&stream)
        stream.finish()
        return stream.rowCount
    }

    /// Prints one object: pretty JSON, one line for ndjson, `key: value` lines for tables.
    static func printObject(_ object: JSONValue, _ options: QueryOptions, _ context: CommandContext) {
        switch options.format {
        case .json: context.out(object.serialized(pretty: true) + "\n")
        case .ndjson: context.out(object.serialized() + "\n")
        case .csv:
            context.out(CSVRenderer.render(object: object, terminalSafe: context.terminalWidth != nil))
        case .table:
            context.out(InspectView(now: options.asOf, color: context.useColor).render(object, width: context.tableWidth))
        }
    }

    // Columns shared by several commands.
    static let profileColumns: [Column] = [
        Column(key: "uuid", header: "UUID"),
        Column(key: "name", header: "NAME", mark: Column.invalidSignatureMark),
        Column(key: "team_id", header: "TEAM"),
        Column(key: "kind", header: "KIND"),
        Column(key: "bundle_id", header: "BUNDLE ID"),
        // Only `profiles --bundle-id` (not `--exact`) says how each profile matched.
        Column(key: "bundle_id_match", header: "MATCH", tableOnlyWhenSet: true),
        Column(key: "effective_expiration_date", header: "EXPIRES", display: RelativeTime.day),
        Column(key: "days_left", header: "LEFT", display: RelativeTime.days),
        Column(key: "signature", header: "SIGNATURE"),
        Column.host,
        Column(key: "path", header: "PATH"),
    ].ranked(["uuid", "name", "effective_expiration_date", "team_id", "kind", "bundle_id", "bundle_id_match", "days_left",
              "signature", "host", "path"])

    static let kinds = ProfileKind.allCases.map(\.rawValue)

    static let kindOption = ValueOption(name: "kind", value: "kind", help: "Only this kind: " + kinds.joined(separator: ", ") + ".",
                                        choices: kinds)

    static let platformOption = ValueOption(name: "platform", value: "platform",
                                            help: "iOS, macOS, tvOS, watchOS or visionOS (also OSX, iPhoneOS, xrOS, …).",
                                            choices: PlatformName.allCases.map(\.rawValue))

    /// `--removed` (only what is gone) and `--include-removed` (present and gone), the same for
    /// every command that lists things that can disappear.
    static func presenceOptions(_ noun: String) -> Presence {
        Presence(removed: Flag(name: "removed", help: "Only \(noun) no longer present anywhere."),
                 includeRemoved: Flag(name: "include-removed", help: "Also \(noun) no longer present."))
    }

    /// `--removed` and `--include-removed`, with a command's own help.
    struct Presence: Sendable {
        var removed: Flag
        var includeRemoved: Flag
        var options: [any OptionHandle] { [removed, includeRemoved] }
    }

    static func presence(_ arguments: ParsedArguments, _ options: Presence) throws -> CatalogQueries.Presence {
        switch try arguments.either(options.removed, or: options.includeRemoved) {
        case true?: return .removed
        case false?: return .any
        case nil: return .present
        }
    }

    /// `--kind`, one of the five profile kinds, in our spelling or fastlane's and match's
    /// (`adhoc`, `appstore`, `developer_id`), any case.
    static func kind(_ arguments: ParsedArguments) throws -> ProfileKind? {
        guard let text = arguments.value(kindOption) else { return nil }
        let folded = text.lowercased().replacingOccurrences(of: "_", with: "-")
        let fastlane: [String: ProfileKind] = ["adhoc": .adHoc, "appstore": .appStore, "developerid": .developerID,
                                               "inhouse": .enterprise, "in-house": .enterprise]
        guard let kind = ProfileKind(rawValue: folded) ?? fastlane[folded] else {
            throw UsageError(message: "--kind must be one of \(kinds.joined(separator: ", ")) (or fastlane's adhoc, appstore, "
                             + "developer_id), got '\(text)'")
        }
        return kind
    }

    /// `--platform` in any accepted spelling; an unknown one is a usage error listing the names.
    static func platform(_ arguments: ParsedArguments) throws -> PlatformName? {
        guard let text = arguments.value(platformOption) else { return nil }
        guard let platform = PlatformName(typed: text) else {
            throw UsageError(message: "--platform must be one of \(PlatformName.accepted), got '\(text)'")
        }
        return platform
    }

    /// The certificates `--certificate TEXT` names; an unknown or ambiguous one is an error that
    /// says what was typed and, when ambiguous, lists the candidates.
    static func certificateSHA1s(_ text: String, _ queries: CatalogQueries) throws -> [String] {
        let matches = try queries.certificates(matching: text)
        guard !matches.isEmpty else { throw CLIError("no certificate matches '\(text)' (by SHA-1, SHA-256, prefix or name)") }
        let hex = text.filter { $0 != ":" && $0 != " " }
        let isDigest = hex.count >= 8 && hex.allSatisfy(\.isHexDigit)
        // A digest prefix must name one certificate; a name search may name several.
        if isDigest, matches.count > 1, hex.count < 40 {
            throw CLIError("'\(text)' is the start of \(matches.count) certificates; type more digits:",
                           details: matches.map { "\($0.sha1)  \($0.commonName ?? "")" })
        }
        return matches.map(\.sha1)
    }
}
