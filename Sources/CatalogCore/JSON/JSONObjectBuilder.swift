import Foundation

/// Collects a record's members into a ``JSONValue`` object.
package struct JSONObjectBuilder: JSONFields {
    private var pairs: [(String, JSONValue)] = []

    package init(capacity: Int = 0) {
        pairs.reserveCapacity(capacity)
    }

    package var object: JSONValue { .object(pairs) }

    package mutating func value(_ key: StaticString, _ value: JSONValue) { pairs.append((key.description, value)) }
    package mutating func string(_ key: StaticString, _ value: String) { pairs.append((key.description, .string(value))) }
    package mutating func optional(_ key: StaticString, _ value: String?) { pairs.append((key.description, .optional(value))) }
    package mutating func optional(_ key: StaticString, _ value: Bool?) { pairs.append((key.description, .optional(value))) }
    package mutating func optional(_ key: StaticString, _ value: Date?) { pairs.append((key.description, .optional(value))) }
    package mutating func bool(_ key: StaticString, _ value: Bool) { pairs.append((key.description, .bool(value))) }
    package mutating func int(_ key: StaticString, _ value: Int64) { pairs.append((key.description, .int(value))) }
    package mutating func strings(_ key: StaticString, _ values: [String]) { pairs.append((key.description, .strings(values))) }
}
