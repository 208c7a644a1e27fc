import CatalogCore

/// RFC 4180: a header row, CRLF line ends, and every cell holding a comma, quote, CR or LF quoted
/// with its quotes doubled. Arrays are joined with `;` (objects in them by what identifies them),
/// objects written as `key=value;…`: no JSON inside a cell.
/// Written to a terminal (`terminalSafe`), control characters in cells are shown escaped instead.
enum CSVRenderer {
    static func render(_ records: [JSONValue], columns: [Column], terminalSafe: Bool = false) -> String {
        records.reduce(into: header(columns, terminalSafe: terminalSafe)) {
            $0 += line($1, columns: columns, terminalSafe: terminalSafe)
        }
    }

    /// The header row: the columns' JSON keys.
    static func header(_ columns: [Column], terminalSafe: Bool) -> String {
        columns.map { field($0.key, terminalSafe) }.joined(separator: ",") + "\r\n"
    }

    /// One record's row.
    static func line(_ record: JSONValue, columns: [Column], terminalSafe: Bool) -> String {
        columns.map { field(text($0.value(in: record)), terminalSafe) }.joined(separator: ",") + "\r\n"
    }

    private static func field(_ text: String, _ terminalSafe: Bool) -> String {
        cell(terminalSafe ? TextSanitizer.terminalSafe(text) : text)
    }

    static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case .string(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .double(let number): return String(number)
        case .array(let items): return items.map(identifying).joined(separator: ";")
        case .object(let pairs): return pairs.map { "\($0.0)=\(text($0.1))" }.joined(separator: ";")
        }
    }

    /// A list member in one cell: an object by what identifies it (its UUID, SHA-1, path, bundle id
    /// or UDID), anything else as text. No JSON in cells.
    static func identifying(_ value: JSONValue) -> String {
        if case .object = value {
            for key in ["uuid", "sha1", "path", "bundle_id", "udid"] {
                if let field = value[key], field != .null { return text(field) }
            }
        }
        return text(value)
    }

    static func cell(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
