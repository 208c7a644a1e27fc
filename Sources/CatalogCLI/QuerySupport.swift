import CatalogCore
import CatalogStore
import Foundation

/// What the query commands share: the catalogue option, the output options, opening the catalogue
/// read-only and printing records.
enum QuerySupport {
    static let commonOptions: [OptionSpec] = [CatalogueLocation.option] + OutputFormat.options

    static let asOfOption = OptionSpec(name: "as-of", value: "date",
                                       help: "Compute days from this ISO-8601 date instead of now (reproducible reports).")

    static func queries(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CatalogQueries {
        CatalogQueries(try CatalogueLocation.openForReading(arguments, context))
    }

    static func print(_ records: [JSONValue], columns: [Column], _ arguments: ParsedArguments,
                      _ context: CommandContext) throws {
        let format = try OutputFormat.from(arguments, context)
        // Nothing to show prints nothing (a cron job mails whatever reaches stdout), except JSON's
        // `[]`, which a script parses; a person at a terminal gets a hint on stderr instead.
        guard !records.isEmpty || format == .json else {
            if context.stderrIsTerminal { context.err("(no results)\n") }
            return
        }
        context.out(context.printer(format, columns).render(records))
    }

    /// Prints one object: pretty JSON, one line for ndjson, `key: value` lines for tables.
    static func printObject(_ object: JSONValue, _ arguments: ParsedArguments, _ context: CommandContext) throws {
        switch try OutputFormat.from(arguments, context) {
        case .json: context.out(object.serialized(pretty: true) + "\n")
        case .ndjson: context.out(object.serialized() + "\n")
        case .csv:
            guard case .object(let pairs) = object else { return }
            context.out(CSVRenderer.render([object], columns: pairs.map { Column(key: $0.0, header: $0.0) }))
        case .table: context.out(DecodeSummary.render(object))
        }
    }

    // Columns shared by several commands.
    static let profileColumns: [Column] = [
        Column(key: "uuid", header: "UUID"),
        Column(key: "name", header: "NAME"),
        Column(key: "team_id", header: "TEAM"),
        Column(key: "kind", header: "KIND"),
        Column(key: "bundle_id", header: "BUNDLE ID"),
        Column(key: "effective_expiration_date", header: "EXPIRES", display: RelativeTime.day),
        Column(key: "days_left", header: "LEFT", display: RelativeTime.days),
        Column(key: "path", header: "PATH"),
    ]

    static let kinds = ProfileKind.allCases.map(\.rawValue)
}
