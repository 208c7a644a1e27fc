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
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(to: &out, pretty: pretty, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the UTF-8 JSON text to `out` (bytes, not String: large outputs are written a lot).
    package func write(to out: inout [UInt8], pretty: Bool, indent: Int) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): JSONValue.writeInteger(value, to: &out)
        case .double(let value):
            out.append(contentsOf: (value.isFinite ? String(value) : "null").utf8)
        case .string(let value): JSONValue.writeString(value, to: &out)
        case .array(let values):
            if values.isEmpty { out.append(contentsOf: "[]".utf8); return }
            for (index, value) in values.enumerated() {
                JSONValue.writeItemStart(opening: "[", first: index == 0, pretty: pretty, indent: indent, to: &out)
                value.write(to: &out, pretty: pretty, indent: indent + 2)
            }
            JSONValue.writeClosing("]", pretty: pretty, indent: indent, to: &out)
        case .object(let pairs):
            if pairs.isEmpty { out.append(contentsOf: "{}".utf8); return }
            for (index, pair) in pairs.enumerated() {
                JSONValue.writeItemStart(opening: "{", first: index == 0, pretty: pretty, indent: indent, to: &out)
                JSONValue.writeString(pair.0, to: &out)
                JSONValue.writeKeyEnd(pretty: pretty, to: &out)
                pair.1.write(to: &out, pretty: pretty, indent: indent + 2)
            }
            JSONValue.writeClosing("}", pretty: pretty, indent: indent, to: &out)
        }
    }

    // The layout of arrays and objects, shared with ``JSONObjectBytes``: `[`/`{` before the first
    // item and `,` before each other one, each item on its own line two spaces in when pretty, the
    // closing bracket on a line of its own at the container's indent.

    /// Before an item of a non-empty array or object at `indent` (the container's).
    static func writeItemStart(opening: Unicode.Scalar, first: Bool, pretty: Bool, indent: Int, to out: inout [UInt8]) {
        out.append(first ? UInt8(ascii: opening) : UInt8(ascii: ","))
        if pretty { newline(indent + 2, &out) }
    }

    /// After an object member's key: `:`, and a space when pretty.
    static func writeKeyEnd(pretty: Bool, to out: inout [UInt8]) {
        out.append(UInt8(ascii: ":"))
        if pretty { out.append(UInt8(ascii: " ")) }
    }

    /// After the last item of a non-empty array or object at `indent`.
    static func writeClosing(_ closing: Unicode.Scalar, pretty: Bool, indent: Int, to out: inout [UInt8]) {
        if pretty { newline(indent, &out) }
        out.append(UInt8(ascii: closing))
    }

    /// The decimal digits of `value`, as `String(value)` spells them, without making the String.
    package static func writeInteger(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...]))
        }
    }

    static func newline(_ indent: Int, _ out: inout [UInt8]) {
        out.append(0x0A)
        // A byte at a time: a listing's indents are 2 to 6 spaces, and appending a repeated
        // element went through the generic path (111 instructions a newline).
        for _ in 0..<indent { out.append(UInt8(ascii: " ")) }
    }

    /// Escapes quotes, backslashes and every control character (C0, DEL and the C1 range
    /// U+0080–U+009F), so data never carries a raw escape sequence to a terminal. Works on the UTF-8
    /// bytes: a C1 control is the pair C2 80…C2 9F. Runs of bytes that need nothing (printable
    /// ASCII but `"` and `\`, and UTF-8 past U+009F) are copied whole.
    package static func writeString(_ value: String, to out: inout [UInt8]) {
        var value = value
        value.withUTF8 { writeString(utf8: $0, to: &out) }
    }

    /// ``writeString(_:to:)`` of the string whose UTF-8 is `bytes`.
    private static func writeString(utf8 bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings (keys, identifiers, dates, names) need no escape at all: one copy.
        if isPlain(bytes) {
            out.append(contentsOf: bytes)
            out.append(UInt8(ascii: "\""))
            return
        }
        var index = 0
        var runStart = 0
        let count = bytes.count
        while index < count {
            // Eight bytes at a time while none of them needs a look.
            while index + 8 <= count,
                  plainASCII(UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)) {
                index += 8
            }
            guard index < count else { break }
            let byte = bytes[index]
            // Most bytes: printable ASCII other than the two that are escaped, or a UTF-8 byte
            // that cannot begin a C1 control.
            if (byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\"))
                || (byte >= 0x80 && byte != 0xC2) {
                index += 1
                continue
            }
            // The escape, written straight to `out` (an array per escaped character was most
            // of the cost of the entitlements' JSON-in-JSON, whose every quote is escaped).
            var width = 1
            let simple: UInt8?, code: UInt32?
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): (simple, code) = (byte, nil)
            case 0x0A: (simple, code) = (UInt8(ascii: "n"), nil)
            case 0x0D: (simple, code) = (UInt8(ascii: "r"), nil)
            case 0x09: (simple, code) = (UInt8(ascii: "t"), nil)
            case 0x00..<0x20, 0x7F: (simple, code) = (nil, UInt32(byte))
            case 0xC2 where index + 1 < count && (0x80...0x9F).contains(bytes[index + 1]):
                (simple, code) = (nil, UInt32(bytes[index + 1]))
                width = 2
            default: (simple, code) = (nil, nil)
            }
            if simple != nil || code != nil {
                if index > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
                if let simple {
                    out.append(UInt8(ascii: "\\"))
                    out.append(simple)
                } else if let code {
                    unicodeEscape(code, to: &out)
                }
                index += width
                runStart = index
            } else {
                index += 1
            }
        }
        if count > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<count])) }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether every byte of `bytes` is printable ASCII other than `"` and `\`: whole words of
    /// eight, the last one overlapping the one before; a string shorter than a word is padded
    /// with a letter.
    static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        guard let base = bytes.baseAddress else { return true }
        guard count >= 8 else {
            var word: UInt64 = 0x6161_6161_6161_6161
            for index in 0..<count {
                let shift = UInt64(8 * index)
                word = word & ~(0xFF << shift) | UInt64(base[index]) << shift
            }
            return plainASCII(word)
        }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= count {
            guard plainASCII(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) else { return false }
            offset += 8
        }
        return offset == count || plainASCII(raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
    }

    /// Whether none of the eight bytes in `word` needs a look: each is printable ASCII other than
    /// `"` and `\`. Whole-word tests: a byte below 0x20 borrows into its top bit when 0x20 is taken
    /// from every byte, and so does a zero byte, which XOR leaves where a byte equals `"`, `\` or
    /// DEL; ASCII keeps every top bit clear. A borrow can also mark a space after such a byte, which
    /// only sends the word to the byte-by-byte path.
    @inline(__always)
    private static func plainASCII(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, tops: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & tops != 0 }
        return word & tops == 0
            && (word &- ones &* 0x20) & ~word & tops == 0
            && !hasZeroByte(word ^ (ones &* 0x22))
            && !hasZeroByte(word ^ (ones &* 0x5C))
            && !hasZeroByte(word ^ (ones &* 0x7F))
    }

    /// `\u00XX` for a code point below 0x100.
    private static func unicodeEscape(_ value: UInt32, to out: inout [UInt8]) {
        func hex(_ digit: UInt32) -> UInt8 { digit < 10 ? UInt8(48 + digit) : UInt8(87 + digit) }
        out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                hex(value >> 4 & 0xF), hex(value & 0xF)])
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
