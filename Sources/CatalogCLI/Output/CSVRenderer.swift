import CatalogCore

/// RFC 4180: a header row, CRLF line ends, and every cell holding a comma, quote, CR or LF quoted
/// with its quotes doubled. Arrays are joined with `;`, objects written as JSON.
/// Written to a terminal (`terminalSafe`), control characters in cells are shown escaped instead.
enum CSVRenderer {
    static func render(_ records: [JSONValue], columns: [Column], terminalSafe: Bool = false) -> String {
        func field(_ text: String) -> String { cell(terminalSafe ? TextSanitizer.terminalSafe(text) : text) }
        var out = columns.map { field($0.key) }.joined(separator: ",") + "\r\n"
        for record in records {
            out += columns.map { field(text(record[$0.key] ?? .null)) }.joined(separator: ",") + "\r\n"
        }
        return out
    }

    static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case .string(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .double(let number): return String(number)
        case .array(let items): return items.map(text).joined(separator: ";")
        case .object: return value.serialized()
        }
    }

    static func cell(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
