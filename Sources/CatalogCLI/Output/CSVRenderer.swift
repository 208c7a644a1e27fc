import CatalogCore

/// RFC 4180: a header row, CRLF line ends, and every cell holding a comma, quote, CR or LF quoted
/// with its quotes doubled. The columns are the JSON keys, in JSON's order: a nested object's keys
/// flattened (`last_run.status`), a list of objects one column per member key with the items'
/// values joined by `;` (`certificates.sha1`), any other list joined by `;`. No JSON inside a cell.
/// Written to a terminal (`terminalSafe`), control characters in cells are shown escaped instead.
enum CSVRenderer {
    /// One object (`show`, `stats`): its flattened keys and one row.
    static func render(object: JSONValue, terminalSafe: Bool = false) -> String {
        let cells = flattened(object)
        return header(cells.map(\.0), terminalSafe: terminalSafe)
            + cells.map { field($0.1, terminalSafe) }.joined(separator: ",") + "\r\n"
    }

    /// The header row.
    static func header(_ keys: [String], terminalSafe: Bool) -> String {
        keys.map { field($0, terminalSafe) }.joined(separator: ",") + "\r\n"
    }

    /// One record's row under `keys`; a key the record lacks is an empty cell.
    static func line(_ record: JSONValue, keys: [String], terminalSafe: Bool) -> String {
        guard case .object(let pairs) = record else { return "\r\n" }
        var nested: [String: String]?
        // A row's keys come in the header's order: each is found where the last one ended.
        var next = 0
        return keys.map { key in
            if next < pairs.count, pairs[next].0 == key {
                next += 1
                return field(isFlattened(pairs[next - 1].1) ? "" : text(pairs[next - 1].1), terminalSafe)
            }
            if let value = record[key] { return field(isFlattened(value) ? "" : text(value), terminalSafe) }
            if nested == nil { nested = Dictionary(flattened(record), uniquingKeysWith: { first, _ in first }) }
            return field(nested?[key] ?? "", terminalSafe)
        }.joined(separator: ",") + "\r\n"
    }

    /// Whether a value has no cell of its own but its members' (`key.member`): a non-empty object
    /// or list of objects. Another row's empty list or null gives the bare key a column, left empty here.
    static func isFlattened(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let pairs): return !pairs.isEmpty
        case .array(let items): return !items.isEmpty && items.allSatisfy { if case .object = $0 { true } else { false } }
        default: return false
        }
    }

    /// The columns of rows collected before printing: every flattened key, in the order first met.
    static func keys(of records: [JSONValue]) -> [String] {
        var seen = Set<String>(), keys: [String] = []
        for record in records {
            for (key, _) in flattened(record) where seen.insert(key).inserted { keys.append(key) }
        }
        return keys
    }

    /// Several kinds of row in one listing (`expiring`, `devices UDID`): each kind's keys, those
    /// already listed once.
    static func union(_ lists: [String]...) -> [String] {
        var seen = Set<String>()
        return lists.joined().filter { seen.insert($0).inserted }
    }

    /// An object's cells: `key` or `parent.key` and its text.
    static func flattened(_ object: JSONValue) -> [(String, String)] {
        var cells: [(String, String)] = []
        flatten(object, prefix: nil, into: &cells)
        return cells
    }

    private static func flatten(_ value: JSONValue, prefix: String?, into cells: inout [(String, String)]) {
        func name(_ key: String) -> String { prefix.map { $0 + "." + key } ?? key }
        switch value {
        case .object(let pairs) where !pairs.isEmpty || prefix == nil:
            for (key, member) in pairs { flatten(member, prefix: name(key), into: &cells) }
        case .array(let items) where !items.isEmpty && items.allSatisfy({ if case .object = $0 { true } else { false } }):
            var seen = Set<String>()
            for case .object(let pairs) in items {
                for (key, _) in pairs where seen.insert(key).inserted {
                    cells.append((name(key), items.map { text($0[key] ?? .null) }.joined(separator: ";")))
                }
            }
        default:
            cells.append((prefix ?? "", text(value)))
        }
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
        case .array(let items): return items.map(text).joined(separator: ";")
        case .object(let pairs): return pairs.map { "\($0.0)=\(text($0.1))" }.joined(separator: ";")
        }
    }

    static func cell(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
