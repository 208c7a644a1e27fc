import Foundation
import Testing
@testable import CatalogCore

@Suite struct JSONValueTests {
    @Test func escapesQuotesBackslashesAndEveryControlCharacter() {
        let text = "a\"b\\c\nd\re\tf\u{1B}[31m\u{7F}\u{85}\u{9F}é🚀\u{0}"
        #expect(JSONValue.string(text).serialized()
                == "\"a\\\"b\\\\c\\nd\\re\\tf\\u001b[31m\\u007f\\u0085\\u009fé🚀\\u0000\"")
    }

    @Test func roundTripsThroughFoundationsDecoder() throws {
        // Keys in sorted order: the decoder returns them sorted (see JSONValue+Decodable).
        let value = JSONValue.object([
            ("empty", .object([])), ("list", .array([.double(1.5), .strings(["x", "y"])])), ("n", .int(-42)),
            ("name", .string("红色 Team's App & Co — \"quoted\" \u{1B}")), ("none", .null), ("ok", .bool(true)),
        ])
        for pretty in [false, true] {
            let text = value.serialized(pretty: pretty)
            let foundation = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            #expect(foundation?["name"] as? String == "红色 Team's App & Co — \"quoted\" \u{1B}")
            #expect(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) == value)
        }
    }

    @Test func prettyPrintsWithTwoSpaces() {
        let value = JSONValue.object([("a", .array([.int(1)])), ("b", .object([]))])
        #expect(value.serialized(pretty: true) == "{\n  \"a\": [\n    1\n  ],\n  \"b\": {}\n}")
    }
}
