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

/// A column of a table or CSV: which record key, its header, and how a table shows it.
struct Column: Sendable {
    var key: String
    var header: String
    /// Table rendering of the value; CSV and JSON use the value itself.
    var display: @Sendable (JSONValue) -> String = Column.plain

    /// Free text a narrow terminal may shorten with `…`; identifiers, dates and counts are never cut.
    var isShrinkable: Bool { ["name", "path", "bundle_id", "common_name", "roots", "message"].contains(key) }

    @Sendable static func plain(_ value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case .string(let text): return text
        case .bool(let flag): return flag ? "yes" : "no"
        case .int(let number): return String(number)
        case .double(let number): return String(number)
        case .array(let items): return items.map(plain).joined(separator: ", ")
        case .object: return value.serialized()
        }
    }
}

/// Renders records in the chosen format.
struct RecordPrinter {
    var format: OutputFormat
    var columns: [Column]
    var terminalWidth: Int?
    var color: Bool

    func render(_ records: [JSONValue]) -> String {
        switch format {
        case .json:
            return JSONValue.array(records).serialized(pretty: true) + "\n"
        case .ndjson:
            return records.map { $0.serialized() + "\n" }.joined()
        case .csv:
            return CSVRenderer.render(records, columns: columns, terminalSafe: terminalWidth != nil)
        case .table:
            return TableRenderer(columns: columns, width: terminalWidth, color: color).render(records)
        }
    }
}

extension CommandContext {
    /// Terminal width from `COLUMNS` or the tty, when stdout is a terminal.
    var terminalWidth: Int? {
        guard stdoutIsTerminal else { return nil }
        if let text = environment["COLUMNS"], let width = Int(text), width > 20 { return width }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 20 { return Int(size.ws_col) }
        return 100
    }

    /// Colour only on a terminal, and never with NO_COLOR set.
    var useColor: Bool { stdoutIsTerminal && environment["NO_COLOR"] == nil }

    func printer(_ format: OutputFormat, _ columns: [Column]) -> RecordPrinter {
        RecordPrinter(format: format, columns: columns, terminalWidth: terminalWidth, color: useColor)
    }
}
