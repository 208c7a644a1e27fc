import Foundation

/// Where a record puts the members of its JSON object, in order: a ``JSONObjectBuilder`` makes a
/// ``JSONValue`` of them (tables, CSV, picking members), a ``JSONObjectBytes`` writes them straight
/// out as the bytes that value would serialize to (a listing's JSON and NDJSON rows, with no tree
/// of values made and freed per row). A record lists its members once, for both.
package protocol JSONFields {
    mutating func value(_ key: StaticString, _ value: JSONValue)
    mutating func string(_ key: StaticString, _ value: String)
    mutating func optional(_ key: StaticString, _ value: String?)
    mutating func optional(_ key: StaticString, _ value: Bool?)
    mutating func optional(_ key: StaticString, _ value: Date?)
    mutating func bool(_ key: StaticString, _ value: Bool)
    mutating func int(_ key: StaticString, _ value: Int64)
    mutating func strings(_ key: StaticString, _ values: [String])
}
