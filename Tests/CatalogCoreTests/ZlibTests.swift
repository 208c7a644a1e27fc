import Foundation
import Testing
@testable import CatalogCore

/// The system zlib as the package uses it: zlib streams with a preset dictionary read back exactly;
/// a stream that is damaged, followed by other bytes, too long or made with another dictionary is an
/// error.
struct ZlibTests {
    private let dictionary = Array("<key>Name</key><string></string><data></data>".utf8)
    private let input = Array((0..<5000).map { "<key>Name</key><string>\($0 % 7)</string>" }.joined().utf8)

    @Test func deflatedBytesInflateExactly() throws {
        let whole = try Zlib.deflate(input, level: 6, dictionary: dictionary)
        #expect(whole.count < input.count / 20)
        #expect(try Zlib.inflate(whole, dictionary: dictionary, maxOutput: input.count) == input)
        #expect(try Zlib.inflate(try Zlib.deflate([], level: 6, dictionary: dictionary), dictionary: dictionary, maxOutput: 0) == [])
        #expect(try Zlib.inflate(try Zlib.deflate(input, level: 9), maxOutput: input.count) == input)
    }

    @Test func badStreamsAreErrors() throws {
        let stream = try Zlib.deflate(input, level: 6, dictionary: dictionary)
        var damaged = stream
        damaged[damaged.count / 2] ^= 0x55
        for (bad, dictionary, limit) in [(stream + [0], dictionary, input.count), (stream, [UInt8](), input.count),
                                         (stream, Array("other".utf8), input.count), (stream, dictionary, input.count - 1),
                                         (Array(stream.dropLast(5)), dictionary, input.count), (damaged, dictionary, input.count)] {
            #expect(throws: Zlib.Error.self) { try Zlib.inflate(bad, dictionary: dictionary, maxOutput: limit) }
        }
    }

    @Test func crc32IsZlibs() {
        #expect(Zlib.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(Zlib.crc32([]) == 0)
    }
}
