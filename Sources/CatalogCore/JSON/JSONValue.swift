import Foundation

/// A JSON value with object keys kept in insertion order, so output is stable and reads in the
/// order the fields are documented. Serialised compactly or pretty-printed (2 spaces).
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    package static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    package static func optional(_ value: Bool?) -> JSONValue { value.map(JSONValue.bool) ?? .null }
    package static func optional(_ value: Int?) -> JSONValue { value.map { .int(Int64($0)) } ?? .null }
    package static func optional(_ value: Date?) -> JSONValue { value.map(JSONValue.date) ?? .null }
    package static func date(_ value: Date) -> JSONValue { .string(ISO8601.format(value)) }
    package static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }

    /// Looks up a key of an object (first match); nil for other values.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    package func serialized(pretty: Bool = false) -> String {
        var out = ""
        write(to: &out, pretty: pretty, indent: 0)
        return out
    }

    package func write(to out: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .double(let value):
            out += value.isFinite ? String(value) : "null"
        case .string(let value): JSONValue.writeString(value, to: &out)
        case .array(let values):
            if values.isEmpty { out += "[]"; return }
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                if pretty { out += "\n" + String(repeating: " ", count: indent + 2) }
                value.write(to: &out, pretty: pretty, indent: indent + 2)
            }
            if pretty { out += "\n" + String(repeating: " ", count: indent) }
            out += "]"
        case .object(let pairs):
            if pairs.isEmpty { out += "{}"; return }
            out += "{"
            for (index, pair) in pairs.enumerated() {
                if index > 0 { out += "," }
                if pretty { out += "\n" + String(repeating: " ", count: indent + 2) }
                JSONValue.writeString(pair.0, to: &out)
                out += pretty ? ": " : ":"
                pair.1.write(to: &out, pretty: pretty, indent: indent + 2)
            }
            if pretty { out += "\n" + String(repeating: " ", count: indent) }
            out += "}"
        }
    }

    /// Escapes quotes, backslashes and every control character (U+0000–U+001F, U+007F), so data
    /// never carries a raw escape sequence to a terminal.
    private static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value):
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension PlistValue {
    /// The value as JSON: data as base64, dates as ISO-8601 UTC, dictionaries in file order.
    package var json: JSONValue {
        switch self {
        case .string(let value): return .string(value)
        case .integer(let value): return .int(value)
        case .unsignedInteger(let value): return Int64(exactly: value).map(JSONValue.int) ?? .double(Double(value))
        case .real(let value): return .double(value)
        case .bool(let value): return .bool(value)
        case .date(let value): return .date(value)
        case .data(let value): return .string(Data(value).base64EncodedString())
        case .array(let values): return .array(values.map(\.json))
        case .dictionary(let dict): return dict.json
        }
    }
}

extension PlistDictionary {
    package var json: JSONValue { .object(map { ($0.key, $0.value.json) }) }
}
