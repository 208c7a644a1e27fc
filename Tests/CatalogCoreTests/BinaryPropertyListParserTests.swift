import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

/// `value` as `size` big-endian bytes.
private func bigEndian(_ value: UInt64, _ size: Int) -> [UInt8] {
    (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - $0))) }
}

/// Assembles a `bplist00` file from already-encoded objects (object references inside them must use
/// `refSize` bytes), writing the offset table and trailer.
private func assemble(_ objects: [[UInt8]], top: UInt64 = 0, refSize: Int = 1, offsetSize: Int = 2) -> [UInt8] {
    var bytes = Array("bplist00".utf8)
    var offsets: [Int] = []
    for object in objects {
        offsets.append(bytes.count)
        bytes += object
    }
    let tableOffset = bytes.count
    for offset in offsets { bytes += bigEndian(UInt64(offset), offsetSize) }
    bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]  // 5 unused, sort version
    bytes += bigEndian(UInt64(objects.count), 8) + bigEndian(top, 8) + bigEndian(UInt64(tableOffset), 8)
    return bytes
}

private func ascii(_ text: String) -> [UInt8] {
    let bytes = Array(text.utf8)
    precondition(bytes.count < 15)
    return [0x50 | UInt8(bytes.count)] + bytes
}

private func parseBinary(_ bytes: [UInt8]) throws -> PlistValue {
    let result = try PropertyListReader.parse(bytes)
    #expect(result.format == .binary)
    return result.value
}

private func foundationBinary(_ object: Any) throws -> [UInt8] {
    [UInt8](try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0))
}

/// A sample using every type Foundation writes (a function: `[String: Any]` is not Sendable).
private func makeRichSample() -> [String: Any] { [
    "ascii": "com.example.app",
    "long ascii": String(repeating: "abcdefghij", count: 40),
    "unicode": "红 Zoë — 😀 𝄞 emoji",
    "empty string": "",
    "true": true,
    "false": false,
    "small": 7,
    "byte": 200,
    "short": 40_000,
    "int32": 3_000_000_000,
    "int64": Int64(1) << 40,
    "max": Int64.max,
    "min": Int64.min,
    "negative": -1,
    "unsigned max": UInt64.max,
    "unsigned big": UInt64(Int64.max) + 12_345,
    "double": 3.141592653589793,
    "float": Float(0.5),
    "negative zero": -0.0,
    "date": Date(timeIntervalSinceReferenceDate: 649_515_906.5),
    "old date": Date(timeIntervalSince1970: -86_400 * 365),
    "data": Data((0..<300).map { UInt8($0 % 256) }),
    "empty data": Data(),
    "nested": [
        "array": [1, "two", 3.5, false, ["deeper": ["x", "y"]]] as [Any],
        "empty array": [Any](),
        "empty dict": [String: Any](),
        "Entitlements": ["application-identifier": "ABCDE12345.com.example.app", "get-task-allow": true] as [String: Any],
    ] as [String: Any],
    "many": (0..<400).map { "item \($0)" },
    "numbers": (0..<300).map { $0 * 1_000 },
] }

extension PlistTests {
    @Suite struct BinaryPropertyListParserTests {
        @Test func richSampleAgreesWithFoundation() throws {
            let bytes = try foundationBinary(makeRichSample())
            let ours = try parseBinary(bytes)
            let parsed = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil)
            let theirs = try #require(foundationValue(parsed))
            #expect(canonical(ours) == theirs)

            let dictionary = try #require(ours.dictionary)
            #expect(dictionary["unicode"] == .string("红 Zoë — 😀 𝄞 emoji"))
            #expect(dictionary["unsigned max"] == .unsignedInteger(UInt64.max))
            #expect(dictionary["unsigned big"] == .unsignedInteger(UInt64(Int64.max) + 12_345))
            #expect(dictionary["min"] == .integer(Int64.min))
            #expect(dictionary["negative"] == .integer(-1))
            #expect(dictionary["int32"] == .integer(3_000_000_000))
            #expect(dictionary["float"] == .real(0.5))
            #expect(dictionary["date"] == .date(Date(timeIntervalSinceReferenceDate: 649_515_906.5)))
            #expect(dictionary["data"] == .data((0..<300).map { UInt8($0 % 256) }))
            #expect(dictionary["true"] == .bool(true))
            #expect(dictionary["nested"]?.dictionary?["Entitlements"]?.dictionary?["get-task-allow"] == .bool(true))
            #expect(dictionary["many"]?.array?.count == 400)
        }

        @Test func topLevelScalarsAndArraysFromFoundation() throws {
            #expect(try parseBinary(try foundationBinary("hello")) == .string("hello"))
            #expect(try parseBinary(try foundationBinary([1, 2, 3])) == .array([.integer(1), .integer(2), .integer(3)]))
            #expect(try parseBinary(try foundationBinary([String: Any]())) == .dictionary(PlistDictionary()))
        }

        @Test func handBuiltObjectsOfEveryType() throws {
            let objects: [[UInt8]] = [
                [0xAF, 0x10, 15] + (1...15).map { UInt8($0) },  // array of 15 refs, extended length
                [0x10, 0xFF],                                     // 1-byte int
                [0x11, 0x01, 0x00],                               // 2-byte int
                [0x12, 0xFF, 0xFF, 0xFF, 0xFF],                   // 4-byte int (unsigned)
                [0x13] + bigEndian(UInt64(bitPattern: -2), 8),     // 8-byte int (signed)
                [0x14] + bigEndian(0, 8) + bigEndian(UInt64.max, 8),        // 16-byte, unsigned
                [0x14] + bigEndian(UInt64.max, 8) + bigEndian(UInt64(bitPattern: -5), 8),  // 16-byte, negative
                [0x22] + bigEndian(UInt64(Float(1.25).bitPattern), 4),
                [0x23] + bigEndian((2.5).bitPattern, 8),
                [0x33] + bigEndian((86_400.0).bitPattern, 8),
                [0x42, 0xDE, 0xAD],
                ascii("hi"),
                [0x62, 0x00, 0x41, 0x7E, 0xA2],                   // UTF-16BE "A红"
                [0xC2, 0x01, 0x02],                               // set → array
                [0xB1, 0x0B],                                     // ordered set → array
                [0xD2, 0x0B, 0x0B, 0x01, 0x02],                   // dict with a duplicate key: later wins
            ]
            let value = try parseBinary(assemble(objects))
            #expect(value == .array([
                .integer(255), .integer(256), .integer(0xFFFF_FFFF), .integer(-2), .unsignedInteger(UInt64.max),
                .integer(-5), .real(1.25), .real(2.5), .date(Date(timeIntervalSinceReferenceDate: 86_400)),
                .data([0xDE, 0xAD]), .string("hi"), .string("A红"), .array([.integer(255), .integer(256)]),
                .array([.string("hi")]), .dictionary(PlistDictionary([("hi", .integer(256))])),
            ]))
        }

        @Test func dictionaryKeepsFileOrder() throws {
            let objects: [[UInt8]] = [[0xD3, 1, 2, 3, 4, 4, 4], ascii("zeta"), ascii("alpha"), ascii("mid"), [0x09]]
            let dictionary = try #require(try parseBinary(assemble(objects)).dictionary)
            #expect(dictionary.keys == ["zeta", "alpha", "mid"])
        }

        @Test func unsupportedObjectsThrow() throws {
            for object: [UInt8] in [
                [0x00], [0x0F], [0x0C],                          // null, fill, unknown
                [0x80, 0x01],                                    // UID
                [0x70], [0x90], [0xE0], [0xF0], [0x34],           // unknown markers, bad date marker
                [0x15] + [UInt8](repeating: 0, count: 32),        // 32-byte integer
                [0x14] + bigEndian(1, 8) + bigEndian(0, 8),       // 128-bit value beyond UInt64
                [0x14] + bigEndian(UInt64.max, 8) + bigEndian(1, 8),  // below Int64.min
                [0x21, 0, 0], [0x24] + [UInt8](repeating: 0, count: 16),  // real sizes 2 and 16
                [0x52, 0x41, 0xC3],                               // non-ASCII in an ASCII string
                [0x61, 0xD8, 0x3D],                               // lone high surrogate
                [0x62, 0xD8, 0x3D, 0x00, 0x41],                   // high surrogate + non-low
                [0x61, 0xDE, 0x00],                               // lone low surrogate
                [0x4F, 0x23, 0, 0, 0, 0, 0, 0, 0, 0],            // length marker not an int
                [0x4F, 0x14] + [UInt8](repeating: 0, count: 16),  // 16-byte length
            ] {
                #expect(parseError(assemble([object])) != nil, "\(object)")
            }
            // Dictionary keys must be strings.
            #expect(parseError(assemble([[0xD1, 1, 1], [0x10, 1]])) != nil)
        }

        @Test func trailerAndOffsetValidation() throws {
            let good = assemble([[0xA1, 1], ascii("x")])
            #expect(try parseBinary(good) == .array([.string("x")]))
            let trailer = good.count - 32
            func patched(_ offset: Int, _ bytes: [UInt8]) -> [UInt8] {
                var copy = good
                copy.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
                return copy
            }
            #expect(parseError(patched(trailer + 6, [0]))?.offset == trailer + 6, "offset int size 0")
            #expect(parseError(patched(trailer + 6, [9]))?.offset == trailer + 6, "offset int size 9")
            #expect(parseError(patched(trailer + 7, [0]))?.offset == trailer + 7, "object ref size 0")
            #expect(parseError(patched(trailer + 7, [9]))?.offset == trailer + 7, "object ref size 9")
            #expect(parseError(patched(trailer + 8, bigEndian(0, 8))) != nil, "no objects")
            #expect(parseError(patched(trailer + 8, bigEndian(3, 8))) != nil, "more objects than the table holds")
            #expect(parseError(patched(trailer + 8, bigEndian(UInt64.max, 8))) != nil, "huge object count")
            #expect(parseError(patched(trailer + 16, bigEndian(2, 8))) != nil, "top object out of range")
            #expect(parseError(patched(trailer + 16, bigEndian(UInt64.max, 8))) != nil)
            #expect(parseError(patched(trailer + 24, bigEndian(UInt64(trailer), 8))) != nil, "table in the trailer")
            #expect(parseError(patched(trailer + 24, bigEndian(UInt64.max, 8))) != nil)
            #expect(parseError(patched(trailer + 24, bigEndian(3, 8))) != nil, "table inside the header")
            // Object offsets pointing into the header, the offset table or past the end.
            let table = trailer - 4
            #expect(parseError(patched(table, bigEndian(2, 2)))?.offset == table)
            #expect(parseError(patched(table, bigEndian(UInt64(table), 2)))?.offset == table)
            #expect(parseError(patched(table + 2, bigEndian(0xFFFF, 2)))?.offset == table + 2)
            // An object reference beyond the object count.
            #expect(parseError(patched(9, [7]))?.offset == 9)
            // Too short to hold a header and trailer.
            #expect(parseError(Array("bplist00".utf8) + [UInt8](repeating: 0, count: 32)) != nil)
            #expect(parseError(Array("bplist00".utf8)) != nil)
            #expect(parseError(Array("bplist15".utf8) + good.dropFirst(8)) != nil)
        }

        @Test func lengthsAreCheckedBeforeAllocating() throws {
            // Data, strings, arrays and dicts that claim more than the file holds.
            for object: [UInt8] in [
                [0x4F, 0x13] + bigEndian(UInt64.max, 8),
                [0x4F, 0x13] + bigEndian(1 << 40, 8),
                [0x5F, 0x12] + bigEndian(1_000_000, 4),
                [0x6F, 0x13] + bigEndian(UInt64(Int64.max), 8),
                [0xAF, 0x13] + bigEndian(1 << 61, 8),
                [0xDF, 0x13] + bigEndian(1 << 62, 8),
                [0xCF, 0x12] + bigEndian(0xFFFF_FFFF, 4),
                [0x4E, 0x00],        // 14 bytes of data in a 2-byte object area
                [0xA3, 0x00],        // 3 refs, 1 present
                [0x13, 0x00, 0x00],  // 8-byte int cut short
                [0x23, 0x00],        // double cut short
                [0x33, 0x00],        // date cut short
            ] {
                #expect(parseError(assemble([object])) != nil, "\(object)")
            }
        }

        @Test func cyclesThrow() throws {
            #expect(parseError(assemble([[0xA1, 0]])) != nil, "array containing itself")
            #expect(parseError(assemble([[0xA1, 1], [0xA1, 0]])) != nil, "two-array cycle")
            #expect(parseError(assemble([[0xD1, 1, 0], ascii("k")])) != nil, "dict value is the dict")
            #expect(parseError(assemble([[0xD1, 0, 1], [0x09]])) != nil, "dict key is the dict")
            #expect(parseError(assemble([[0xA1, 1], [0xD1, 2, 1], ascii("k")])) != nil, "cycle below the root")
            #expect(parseError(assemble([[0xC1, 0]])) != nil, "set containing itself")
        }

        @Test func sharedObjectsAreFineButCannotExplode() throws {
            // Two refs to the same string and the same sub-array: a DAG, not a cycle.
            let shared = try parseBinary(assemble([[0xA3, 1, 2, 2], [0xA2, 2, 2], ascii("s")]))
            #expect(shared == .array([.array([.string("s"), .string("s")]), .string("s"), .string("s")]))
            // A "diamond" chain: every level refers twice to the next, expanding to 2^100 nodes.
            let levels = 100
            var objects: [[UInt8]] = (0..<levels).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
            objects.append([0x09])
            let start = ContinuousClock.now
            #expect(parseError(assemble(objects)) != nil)
            #expect(ContinuousClock.now - start < .seconds(5))
        }

        @Test func deepChainsHitTheDepthLimit() throws {
            func chain(_ depth: Int) -> [UInt8] {
                var objects: [[UInt8]] = (0..<depth).map { [0xA1] + bigEndian(UInt64($0 + 1), 4) }
                objects.append([0x08])
                return assemble(objects, refSize: 4, offsetSize: 4)
            }
            let limit = PropertyListReader.maximumDepth
            // Dictionaries count too.
            var objects: [[UInt8]] = (0...limit).map {
                [0xD1] + bigEndian(UInt64(limit + 2), 2) + bigEndian(UInt64($0 + 1), 2)
            }
            objects.append([0x09])
            objects.append(ascii("k"))
            let outcomes = try parseOnDecodingStack([chain(limit), chain(limit + 1), chain(100_000),
                                                     assemble(objects, refSize: 2)])
            #expect(throws: Never.self) { try outcomes[0].get() }
            for outcome in outcomes.dropFirst() { #expect(parseError(outcome) != nil) }
        }

        @Test func everyTruncationThrows() throws {
            let bytes = try foundationBinary(makeRichSample())
            for length in 0..<bytes.count {
                #expect(throws: DecodeError.self, "prefix of \(length) bytes") {
                    try PropertyListReader.parse(Array(bytes[..<length]))
                }
            }
        }

        @Test func randomCorruptionNeverCrashes() throws {
            var generator = SplitMix64(seed: 0xB1157)
            let original = try foundationBinary(makeRichSample())
            var refused = 0
            for round in 0..<3_000 {
                var bytes = original
                for _ in 0..<(1 + Int(generator.next() % 4)) {
                    // Half the rounds aim at the trailer and offset table, where corruption hurts most.
                    let span = round % 2 == 0 ? bytes.count : min(bytes.count - 8, 200)
                    let index = bytes.count - 1 - Int(generator.next() % UInt64(span))
                    bytes[index] = UInt8(truncatingIfNeeded: generator.next())
                }
                if refusedAsDecodeError(bytes) { refused += 1 }
            }
            // Each corrupt input either parses or is refused with a typed error, and some are refused.
            #expect(refused > 0)
        }
    }
}
