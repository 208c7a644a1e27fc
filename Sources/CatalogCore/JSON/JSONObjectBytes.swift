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
    private var prefixes = JSONKeyPrefixes()

    package init() {}

    /// Empties the buffer and puts `prefix` in it (a row's separator), for a new object.
    package mutating func start(after prefix: String = "", pretty: Bool, indent: Int) {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: prefix.utf8)
        self.pretty = pretty
        self.indent = indent
        prefixes.use(pretty: pretty, indent: indent)
        count = 0
    }

    /// Closes the object.
    package mutating func finish() {
        if count == 0 {
            bytes.append(contentsOf: "{}".utf8)
        } else {
            JSONValue.writeClosing("}", pretty: pretty, indent: indent, to: &bytes)
        }
    }

    /// A line feed after the object (an NDJSON row).
    package mutating func appendLineFeed() { bytes.append(0x0A) }

    /// The member's start (``JSONValue/writeItemStart(opening:first:pretty:indent:to:)``), its key
    /// and `:`: the separator, then the rest as ``JSONKeyPrefixes`` keeps it.
    private mutating func key(_ key: StaticString) {
        bytes.append(count == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
        count += 1
        let pretty = pretty, indent = indent
        prefixes.append(key, to: &bytes) { out in
            if pretty { JSONValue.newline(indent + 2, &out) }
            // A record's keys are literals of letters and underscores, copied as they are; a key
            // that needed escaping would still get it.
            key.withUTF8Buffer { utf8 in
                if JSONValue.isPlain(utf8) {
                    out.append(UInt8(ascii: "\""))
                    out.append(contentsOf: utf8)
                    out.append(UInt8(ascii: "\""))
                } else {
                    JSONValue.writeString(key.description, to: &out)
                }
            }
            JSONValue.writeKeyEnd(pretty: pretty, to: &out)
        }
    }

    /// A member's value, as ``JSONValue`` writes it.
    private mutating func write(_ value: JSONValue) {
        value.write(to: &bytes, pretty: pretty, indent: indent + 2)
    }

    package mutating func value(_ key: StaticString, _ value: JSONValue) {
        self.key(key)
        write(value)
    }

    package mutating func string(_ key: StaticString, _ value: String) {
        self.key(key)
        JSONValue.writeString(value, to: &bytes)
    }

    package mutating func optional(_ key: StaticString, _ value: String?) {
        self.key(key)
        if let value { JSONValue.writeString(value, to: &bytes) } else { write(.null) }
    }

    package mutating func optional(_ key: StaticString, _ value: Bool?) {
        self.key(key)
        write(value.map(JSONValue.bool) ?? .null)
    }

    package mutating func optional(_ key: StaticString, _ value: Date?) {
        self.key(key)
        if let value { ISO8601.appendQuoted(value, to: &bytes) } else { write(.null) }
    }

    package mutating func bool(_ key: StaticString, _ value: Bool) {
        self.key(key)
        write(.bool(value))
    }

    package mutating func int(_ key: StaticString, _ value: Int64) {
        self.key(key)
        write(.int(value))
    }

    /// As ``JSONValue/strings(_:)`` would write, without making a value per string.
    package mutating func strings(_ key: StaticString, _ values: [String]) {
        self.key(key)
        guard !values.isEmpty else { bytes.append(contentsOf: "[]".utf8); return }
        for (index, value) in values.enumerated() {
            JSONValue.writeItemStart(opening: "[", first: index == 0, pretty: pretty, indent: indent + 2, to: &bytes)
            JSONValue.writeString(value, to: &bytes)
        }
        JSONValue.writeClosing("]", pretty: pretty, indent: indent + 2, to: &bytes)
    }
}
