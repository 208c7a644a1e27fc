import CatalogCore
import Foundation

/// How records are printed: `table` for people, `json` (an array; `[]` when empty), `ndjson`
/// (one object per line) and `csv` (RFC 4180) for scripts. Default: table on a terminal, else JSON.
enum OutputFormat: String, CaseIterable {
    case table
    case json
    case ndjson
    case csv

    static let options: [OptionSpec] = [
        OptionSpec(name: "format", value: "format", help: "table, json, ndjson or csv (default: table on a terminal, else json).",
                   choices: allCases.map(\.rawValue)),
        OptionSpec(name: "json", help: "Shorthand for --format json."),
    ]

    static func from(_ arguments: ParsedArguments, _ context: CommandContext) throws -> OutputFormat {
        if let text = try arguments.choice("format", among: allCases.map(\.rawValue)) {
            if arguments.flag("json"), text != "json" {
                throw UsageError(message: "--json conflicts with --format \(text)")
            }
            return OutputFormat(rawValue: text) ?? .json
        }
        if arguments.flag("json") { return .json }
        return context.stdoutIsTerminal ? .table : .json
    }
}
