import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

@Suite struct JSONValueTests {
    @Test func escapesQuotesBackslashesAndEveryControlCharacter() {
        let text = "a\"b\\c\nd\re\tf\u{1B}[31m\u{7F}\u{85}\u{9F}é🚀\u{0}"
        #expect(JSONValue.string(text).serialized()
                == "\"a\\\"b\\\\c\\nd\\re\\tf\\u001b[31m\\u007f\\u0085\\u009fé🚀\\u0000\"")
    }

    /// Strings are scanned eight bytes at a time; every character that is escaped, and the bytes
    /// around it, at every offset within and across words, and generated mixes, give what the
    /// definition gives character by character.
    @Test func escapesTheSameWhereverTheCharacterFallsInAWord() {
        let special: [Character] = ["\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "\u{80}", "\u{85}", "\u{9F}",
                                    "\u{A0}", "é", "\u{100}", "🚀", " ", "~", "!", "#", "[", "]", "a"]
        var texts: [String] = []
        for character in special {
            for offset in 0..<17 {
                for tail in [0, 1, 7, 8, 9] {
                    texts.append(String(repeating: "x", count: offset) + String(character) + String(repeating: " ", count: tail))
                }
            }
        }
        var generator = SeededRandom(seed: 15)
        for _ in 0..<4_000 {
            let count = Int(generator.next() % 40)
            texts.append(String((0..<count).map { _ in special[Int(generator.next() % UInt64(special.count))] }))
        }
        for text in texts {
            #expect(JSONValue.string(text).serialized() == Self.definition(text), "\(Array(text.unicodeScalars))")
        }
    }

    /// The escaping rule, one scalar at a time.
    private static func definition(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
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
