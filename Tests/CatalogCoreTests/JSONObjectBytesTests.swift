import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

/// A record written member by member into bytes gives exactly what its ``JSONValue`` serializes to,
/// compact and pretty at every indent a listing uses: the two are the same output.
@Suite struct JSONObjectBytesTests {
    /// Every kind of member, with values that need escaping, empty and one-element arrays, both
    /// ends of Int64 and dates, through both writers.
    private static func members<Fields: JSONFields>(_ fields: inout Fields, variant: Int) {
        fields.string("type", "profile")
        fields.string("name", variant == 0 ? "Plain name" : "Quote \" back\\slash \n \u{1B}[31m \u{85} é 🚀")
        fields.optional("team_id", variant == 0 ? "ABCDE12345" : nil)
        fields.optional("get_task_allow", variant == 0 ? true : nil)
        fields.optional("xcode_managed", variant == 0 ? false : nil)
        fields.optional("creation_date", variant == 0 ? Date(timeIntervalSince1970: 1_700_000_000.5) : nil)
        fields.optional("expiration_date", variant == 0 ? Date(timeIntervalSince1970: -1e18) : Date(timeIntervalSince1970: 0))
        fields.bool("installed", variant == 0)
        for value in [0, 7, -7, 10, 1_000_000, Int64.max, Int64.min] { fields.int("device_count", value) }
        fields.strings("platforms", [[], ["iOS"], ["iOS", "xrOS", "tab\there"]][variant % 3])
        fields.value("days_left", variant == 0 ? .int(-3) : .null)
        fields.value("nested", .object([("a", .array([.int(1), .object([])])), ("b", .strings([]))]))
    }

    @Test(arguments: [(false, 0), (true, 0), (true, 2), (true, 6)])
    func writesWhatTheValueSerializesTo(pretty: Bool, indent: Int) {
        for variant in 0..<3 {
            var builder = JSONObjectBuilder()
            Self.members(&builder, variant: variant)
            var expected = Array("prefix".utf8)
            builder.object.write(to: &expected, pretty: pretty, indent: indent)

            var bytes = JSONObjectBytes()
            // Twice into the same writer: the second row starts from an empty buffer.
            for _ in 0..<2 {
                bytes.start(after: "prefix", pretty: pretty, indent: indent)
                Self.members(&bytes, variant: variant)
                bytes.finish()
                #expect(String(decoding: bytes.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
            }
        }
    }

    /// The writer keeps each key's bytes for its layout (JSONKeyPrefixes): one writer moving from
    /// layout to layout and back still writes each row as its value serializes.
    @Test func oneWriterChangingLayoutWritesEachRowInItsOwn() {
        var bytes = JSONObjectBytes()
        for (pretty, indent) in [(true, 2), (false, 0), (true, 6), (true, 2), (false, 0), (true, 2)] {
            var builder = JSONObjectBuilder()
            Self.members(&builder, variant: 1)
            var expected: [UInt8] = []
            builder.object.write(to: &expected, pretty: pretty, indent: indent)
            bytes.start(pretty: pretty, indent: indent)
            Self.members(&bytes, variant: 1)
            bytes.finish()
            #expect(String(decoding: bytes.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
                    "pretty \(pretty), indent \(indent)")
        }
    }

    @Test func anObjectWithoutMembersIsEmptyBraces() {
        var bytes = JSONObjectBytes()
        bytes.start(pretty: true, indent: 2)
        bytes.finish()
        #expect(bytes.bytes == Array("{}".utf8))
        #expect(JSONValue.object([]).serialized(pretty: true) == "{}")
    }

    @Test func integersAreSpelledAsStringSpellsThem() {
        var values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, Int64.max, Int64.min, Int64.min + 1]
        var generator = SeededRandom(seed: 64)
        for _ in 0..<2_000 { values.append(Int64(bitPattern: generator.next()) >> Int64(generator.next() % 63)) }
        for value in values {
            var out: [UInt8] = []
            JSONValue.writeInteger(value, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(value))
        }
    }
}
