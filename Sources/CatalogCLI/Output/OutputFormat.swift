import CatalogCore
import Foundation

/// How records are printed: `table` for people, `json` (an array; `[]` when empty), `ndjson`
/// (one object per line) and `csv` (RFC 4180) for scripts. Default: table on a terminal, else JSON.
enum OutputFormat: String, CaseIterable {
    case table
    case json
    case ndjson
    case csv

    static let formatOption = ValueOption(name: "format", value: "format",
                                    help: "table, json, ndjson or csv (default: table on a terminal, else json).",
                                    choices: allCases.map(\.rawValue))
    static let jsonFlag = Flag(name: "json", help: "Shorthand for --format json.")
    static let widthOption = ValueOption(name: "width", value: "n",
                                         help: "Fit tables to N columns (0: no limit), terminal or not, e.g. for cron mail\n(default: the terminal's width, else $COLUMNS, else no limit).")
    static let options: [any OptionHandle] = [formatOption, jsonFlag, widthOption]

    static func from(_ arguments: ParsedArguments, _ context: CommandContext) throws -> OutputFormat {
        if arguments.given(widthOption) {
            context.widthOverride = try arguments.integer(widthOption, default: 0, range: 0...10_000)
        }
        if let text = try arguments.choice(formatOption) {
            if arguments[jsonFlag], text != "json" {
                throw UsageError(message: "--json conflicts with --format \(text)")
            }
            return OutputFormat(rawValue: text) ?? .json
        }
        if arguments[jsonFlag] { return .json }
        return context.stdoutIsTerminal ? .table : .json
    }
}
