import Foundation

/// Writes a record's members as a JSON object straight into ``bytes``: the same bytes as
/// `JSONValue.object(members).write(to:pretty:indent:)` (JSONObjectBytesTests holds it to that),
/// without making the values. One writer serves every row of a listing: ``start(after:pretty:indent:)``
/// empties it (keeping its storage), the record adds its members, ``finish()`` closes the object.
package struct JSONObjectBytes: JSONFields {
    package private(set) var bytes: [UInt8] = []
    private var pretty = false
    private var indent = 0
    private var count = 0

    package init() {}

    /// Empties the buffer and puts `prefix` in it (a row's separator), for a new object.
    package mutating func start(after prefix: String = "", pretty: Bool, indent: Int) {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: prefix.utf8)
        self.pretty = pretty
        self.indent = indent
        count = 0
    }

    /// Closes the object.
    package mutating func finish() {
        if count == 0 {
            bytes.append(contentsOf: "{}".utf8)
        } else {
            if pretty { JSONValue.newline(indent, &bytes) }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// A line feed after the object (an NDJSON row).
    package mutating func appendLineFeed() { bytes.append(0x0A) }

    /// `{` or `,`, the line break and indent, the key and `: `.
    private mutating func key(_ key: StaticString) {
        bytes.append(UInt8(ascii: count == 0 ? "{" : ","))
        count += 1
        if pretty { JSONValue.newline(indent + 2, &bytes) }
        // A record's keys are literals of letters and underscores, copied as they are; a key that
        // needed escaping would still get it.
        key.withUTF8Buffer { utf8 in
            if JSONValue.isPlain(utf8) {
                bytes.append(UInt8(ascii: "\""))
                bytes.append(contentsOf: utf8)
                bytes.append(UInt8(ascii: "\""))
            } else {
                JSONValue.writeString(key.description, to: &bytes)
            }
        }
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(UInt8(ascii: " ")) }
    }

    private mutating func null() { bytes.append(contentsOf: "null".utf8) }

    package mutating func value(_ key: StaticString, _ value: JSONValue) {
        self.key(key)
        value.write(to: &bytes, pretty: pretty, indent: indent + 2)
    }

    package mutating func string(_ key: StaticString, _ value: String) {
        self.key(key)
        JSONValue.writeString(value, to: &bytes)
    }

    package mutating func optional(_ key: StaticString, _ value: String?) {
        self.key(key)
        if let value { JSONValue.writeString(value, to: &bytes) } else { null() }
    }

    package mutating func optional(_ key: StaticString, _ value: Bool?) {
        self.key(key)
        if let value { bytes.append(contentsOf: (value ? "true" : "false").utf8) } else { null() }
    }

    package mutating func optional(_ key: StaticString, _ value: Date?) {
        self.key(key)
        if let value { JSONValue.writeString(ISO8601.format(value), to: &bytes) } else { null() }
    }

    package mutating func bool(_ key: StaticString, _ value: Bool) {
        self.key(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    package mutating func int(_ key: StaticString, _ value: Int64) {
        self.key(key)
        JSONValue.writeInteger(value, to: &bytes)
    }

    package mutating func strings(_ key: StaticString, _ values: [String]) {
        self.key(key)
        guard !values.isEmpty else { bytes.append(contentsOf: "[]".utf8); return }
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            if pretty { JSONValue.newline(indent + 4, &bytes) }
            JSONValue.writeString(value, to: &bytes)
        }
        if pretty { JSONValue.newline(indent + 2, &bytes) }
        bytes.append(UInt8(ascii: "]"))
    }
}
