import CatalogCore
import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// The compact plist's own deflater (issue 15, eighth pass): what it writes is a zlib stream that
/// zlib inflates, with the preset dictionary, to exactly its input, whatever the input; it is about
/// as small as zlib's level 3; and the check that guards it refuses anything else.
struct FixedHuffmanDeflaterTests {
    /// SplitMix64: the same bytes on every run.
    private struct Bytes {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func bytes(_ count: Int, alphabet: Int = 256) -> [UInt8] {
            (0..<count).map { _ in UInt8(truncatingIfNeeded: next() % UInt64(alphabet)) }
        }
    }

    private func inflated(_ stream: [UInt8], dictionary: [UInt8] = CompactPlist.dictionary) -> [UInt8]? {
        Zlib.inflate(stream, dictionary: dictionary, limit: 1 << 24)
    }

    @Test func everyInputComesBackExactly() throws {
        var random = Bytes(state: 15)
        let dictionary = CompactPlist.dictionary
        var inputs: [[UInt8]] = [[], [0], [1, 2], Array("<key>".utf8), dictionary, dictionary + dictionary,
                                 [UInt8](repeating: 0x41, count: 1000),  // distance 1, lengths of 258
                                 [UInt8](repeating: 0, count: 258 * 3 + 2)]
        for count in [3, 7, 100, 2_000, 40_000, 100_000] {
            inputs.append(random.bytes(count))              // nothing to match
            inputs.append(random.bytes(count, alphabet: 4)) // short matches everywhere
        }
        // Repeats at the edge of the 32 KB window, and just past it.
        let block = random.bytes(300)
        for gap in [32_768 - 300, 32_768 - 299, 32_768 - 298, 40_000] {
            inputs.append(block + random.bytes(gap) + block)
        }
        // Dictionary text interleaved with other bytes, as a template is.
        for slice in stride(from: 0, to: dictionary.count - 64, by: 97) {
            inputs.append(Array(dictionary[slice..<slice + 64]) + random.bytes(Int(random.next() % 20)) + Array(dictionary[0..<slice]))
        }
        let deflater = FixedHuffmanDeflater(dictionary: dictionary)
        let check = Zlib.Check()
        for (index, input) in inputs.enumerated() {
            let stream = deflater.deflate(input)
            #expect(inflated(stream) == input, "input \(index) (\(input.count) bytes)")
            #expect(check.inflates(stream, to: input, dictionary: dictionary), "input \(index)")
            // The header names the dictionary: without it, zlib refuses the stream.
            #expect(inflated(stream, dictionary: Array(dictionary.dropFirst())) == nil, "input \(index)")
        }
        // The deflater keeps nothing of one input for the next.
        #expect(deflater.deflate(inputs[5]) == FixedHuffmanDeflater(dictionary: dictionary).deflate(inputs[5]))
    }

    /// What the compact plist stores is about as small as zlib's level 3 with the same dictionary
    /// (within 5 %), on whole plists (where zlib's dynamic codes win, and are taken) as on plists
    /// stripped of their base64, like templates (where the fixed codes are the smaller).
    @Test func itIsAboutAsSmallAsZlib() throws {
        let paths = try FileManager.default.subpathsOfDirectory(atPath: TestPaths.fixtures)
            .filter { $0.hasSuffix(".mobileprovision") || $0.hasSuffix(".provisionprofile") }
        var plists: [[UInt8]] = []
        for path in paths {
            let bytes = try FileBytes.read(TestPaths.fixtures + "/" + path, limit: 1 << 22)
            if case .success(let profile) = Result(catching: { try ProfileDecoder.decode(bytes, path: path) }) {
                plists.append(profile.rawPlist)
            }
        }
        #expect(plists.count >= 20)
        let dictionary = CompactPlist.dictionary
        // Text like a template's: the plists without their `<data>` contents (which a template
        // holds as references and blobs), so mostly what the dictionary holds, names, dates and
        // identifiers.
        let templates = plists.map { plist -> [UInt8] in
            let text = String(decoding: plist, as: UTF8.self)
            return Array(text.replacingOccurrences(of: "<data>[^<]*</data>", with: "<data></data>", options: .regularExpression).utf8)
        }
        let compressor = CompactPlist.Compressor()
        let zlib = Zlib.Deflater()
        for (name, inputs) in [("plists", plists), ("templates", templates)] {
            var ours = 0, theirs = 0
            for input in inputs {
                let stream = try #require(compressor.deflate(input))
                #expect(inflated(stream) == input)
                ours += stream.count
                theirs += try #require(zlib.deflate(input, dictionary: dictionary)).count
            }
            #expect(Double(ours) <= Double(theirs) * 1.05, "\(name): \(ours) bytes against zlib's \(theirs)")
        }
    }

    /// The check refuses a damaged stream, a stream with bytes after it, a truncated one, and a
    /// stream of other bytes than those expected.
    @Test func theCheckRefusesAnythingButTheExpectedBytes() {
        let input = Array("<dict><key>Name</key><string>A profile</string></dict>".utf8)
        let dictionary = CompactPlist.dictionary
        let stream = FixedHuffmanDeflater(dictionary: dictionary).deflate(input)
        let check = Zlib.Check()
        #expect(check.inflates(stream, to: input, dictionary: dictionary))
        #expect(!check.inflates(stream + [0], to: input, dictionary: dictionary))
        #expect(!check.inflates(Array(stream.dropLast()), to: input, dictionary: dictionary))
        #expect(!check.inflates(stream, to: input + [0x20], dictionary: dictionary))
        #expect(!check.inflates(stream, to: Array(input.dropLast()), dictionary: dictionary))
        var flipped = stream
        flipped[stream.count / 2] ^= 0x10
        #expect(!check.inflates(flipped, to: input, dictionary: dictionary))
        // And accepts again after refusing.
        #expect(check.inflates(stream, to: input, dictionary: dictionary))
    }
}
