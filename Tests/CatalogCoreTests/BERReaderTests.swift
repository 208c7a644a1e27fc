import Testing
import CatalogTestSupport
@testable import CatalogCore

@Suite(.timeLimit(.minutes(10))) struct BERReaderTests {
    typealias B = ASN1TestBytes

    /// The error `bytes` raise, which must be a `.malformedEnvelope` DecodeError.
    func failure(_ bytes: [UInt8], maxDepth: Int = BERReader.defaultMaxDepth,
                 maxNodes: Int = BERReader.defaultMaxNodes) -> DecodeError? {
        B.caught(.malformedEnvelope) {
            _ = try BERReader(bytes: bytes, maxDepth: maxDepth, maxNodes: maxNodes)
        }
    }

    // MARK: Lengths

    @Test func definiteShortForm() throws {
        let reader = try BERReader(bytes: [0x30, 0x06, 0x02, 0x01, 0x05, 0x04, 0x01, 0xAA])
        #expect(reader.nodes.count == 3)
        let root = reader.root
        #expect(root.tag == .sequence && root.isConstructed && root.depth == 0)
        #expect(root.contentStart == 2 && root.contentEnd == 8 && root.endOffset == 8)
        #expect(!root.isIndefiniteLength)
        var children = reader.children(of: root)
        let integer = try children.read(.integer, "integer")
        #expect(integer.depth == 1 && integer.headerOffset == 2 && integer.contentStart == 4)
        #expect(try reader.integerBytes(integer, "integer") == [0x05])
        let octets = try children.read(.octetString, "octets")
        #expect(Array(reader.content(of: octets)) == [0xAA])
        #expect(children.next() == nil)
    }

    @Test func definiteLongForm() throws {
        let short = [UInt8](repeating: 0x41, count: 0x80)
        let one = try BERReader(bytes: [0x04, 0x81, 0x80] + short)
        #expect(one.root.contentStart == 3 && one.root.contentEnd == 0x83)
        let long = [UInt8](repeating: 0x42, count: 0x1234)
        let two = try BERReader(bytes: [0x04, 0x82, 0x12, 0x34] + long)
        #expect(try two.stringBytes(two.root) == long)
        // Non-minimal long form is BER-legal.
        let padded = try BERReader(bytes: [0x04, 0x84, 0x00, 0x00, 0x00, 0x01, 0x7A])
        #expect(Array(padded.content(of: padded.root)) == [0x7A])
    }

    @Test func indefiniteLength() throws {
        let reader = try BERReader(bytes: [0x30, 0x80, 0x02, 0x01, 0x01, 0x00, 0x00])
        #expect(reader.root.isIndefiniteLength)
        #expect(reader.root.contentEnd == 5 && reader.root.endOffset == 7)
        #expect(reader.nodes.count == 2)
    }

    @Test func nestedIndefiniteLength() throws {
        let bytes: [UInt8] = [0x30, 0x80,
                              0x30, 0x80, 0x02, 0x01, 0x01, 0x00, 0x00,
                              0x31, 0x80, 0x00, 0x00,
                              0x05, 0x00,
                              0x00, 0x00]
        let reader = try BERReader(bytes: bytes)
        #expect(reader.nodes.map(\.depth) == [0, 1, 2, 1, 1])
        #expect(reader.nodes[1].endOffset == 9 && reader.nodes[3].contentStart == 11)
        #expect(reader.nodes[3].contentEnd == 11)
        var children = reader.children(of: reader.root)
        #expect(children.next()?.tag == .sequence)
        #expect(children.next()?.tag == .set)
        #expect(children.next()?.tag == .null)
        #expect(children.next() == nil)
    }

    @Test func chunkedOctetString() throws {
        // 24 80 { 04 "AB", 24 80 { 04 "C" } , 04 "" } 00 00
        let bytes: [UInt8] = [0x24, 0x80, 0x04, 0x02, 0x41, 0x42,
                              0x24, 0x80, 0x04, 0x01, 0x43, 0x00, 0x00,
                              0x04, 0x00,
                              0x00, 0x00]
        let reader = try BERReader(bytes: bytes)
        #expect(try reader.stringBytes(reader.root) == Array("ABC".utf8))
        let definite = try BERReader(bytes: [0x24, 0x07, 0x04, 0x01, 0x41, 0x04, 0x02, 0x42, 0x43])
        #expect(try definite.stringBytes(definite.root) == Array("ABC".utf8))
        // A chunk of another type is rejected.
        let mixed = try BERReader(bytes: [0x24, 0x03, 0x0C, 0x01, 0x41])
        #expect(B.caught(.malformedEnvelope) { _ = try mixed.stringBytes(mixed.root) }?.offset == 2)
    }

    // MARK: Tags

    @Test func highTagNumbers() throws {
        let big = try BERReader(bytes: [0xBF, 0x81, 0x00, 0x03, 0x02, 0x01, 0x07])
        #expect(big.root.tag == .contextSpecific(128) && big.root.isConstructed)
        #expect(big.root.contentStart == 4)
        let explicit = try big.explicit(big.root, 128, "field")
        #expect(explicit.tag == .integer)
        let thirtyOne = try BERReader(bytes: [0x5F, 0x1F, 0x01, 0xAA])
        #expect(thirtyOne.root.tag == BERTag(tagClass: .application, number: 31))
        let privateTag = try BERReader(bytes: [0xDF, 0x8F, 0xFF, 0xFF, 0xFF, 0x7F, 0x00])
        #expect(privateTag.root.tag == BERTag(tagClass: .private, number: UInt32.max))
        #expect(failure([0x9F, 0x80, 0x01, 0x00])?.offset == 1)            // leading 0x80
        #expect(failure([0x9F, 0x90, 0x80, 0x80, 0x80, 0x00, 0x00]) != nil) // > 32 bits
        #expect(failure([0x9F, 0x81]) != nil)                              // truncated tag
    }

    @Test func objectIdentifiers() throws {
        let reader = try BERReader(bytes: [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02])
        #expect(try reader.objectIdentifier(reader.root, "oid") == "1.2.840.113549.1.7.2")
        let joint = try BERReader(bytes: [0x06, 0x03, 0x81, 0x34, 0x03])
        #expect(try joint.objectIdentifier(joint.root, "oid") == "2.100.3")
        let truncated = try BERReader(bytes: [0x06, 0x02, 0x2A, 0x86])
        #expect(B.caught(.malformedEnvelope) { _ = try truncated.objectIdentifier(truncated.root, "oid") } != nil)
        let huge = try BERReader(bytes: [0x06, 0x0C, 0x2A] + [UInt8](repeating: 0xFF, count: 10) + [0x7F])
        #expect(B.caught(.malformedEnvelope) { _ = try huge.objectIdentifier(huge.root, "oid") } != nil)
    }

    // MARK: Malformed input

    @Test func lengthOverflowAndOverrun() {
        #expect(failure([0x04, 0x88, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])?.offset == 1)
        #expect(failure([0x04, 0x88, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00])?.offset == 1)
        #expect(failure([0x04, 0x89, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xAA])?.offset == 1) // length of length 9
        #expect(failure([0x04, 0x84, 0x7F, 0xFF, 0xFF, 0xFF, 0x00])?.offset == 1)
        #expect(failure([0x30, 0x05, 0x02, 0x01, 0x01])?.offset == 1)
        #expect(failure([0x30, 0x03, 0x02, 0x02, 0x01])?.offset == 3)      // child overruns parent
        #expect(failure([0x04, 0xFF, 0x00])?.offset == 1)                  // reserved
        #expect(failure([0x04, 0x82, 0x01])?.offset == 1)                  // truncated long form
    }

    @Test func indefiniteLengthErrors() {
        #expect(failure([0x30, 0x80, 0x02, 0x01, 0x01])?.offset == 0)              // missing EOC
        #expect(failure([0x30, 0x80, 0x02, 0x01, 0x01, 0x00])?.offset == 5)        // half an EOC
        #expect(failure([0x30, 0x80, 0x00, 0x01, 0xAA]) != nil)                    // EOC with a length
        #expect(failure([0x04, 0x80, 0x41, 0x00, 0x00])?.offset == 1)              // primitive indefinite
        #expect(failure([0x30, 0x04, 0x30, 0x80, 0x00, 0x00, 0x00, 0x00]) != nil)  // inner EOC outside parent
        #expect(failure([0x30, 0x02, 0x00, 0x00])?.offset == 2)                    // EOC in definite content
        #expect(failure([0x30, 0x80, 0x30, 0x80, 0x00, 0x00])?.offset == 0)        // outer EOC missing
        #expect(failure([0x00, 0x00]) != nil)
    }

    @Test func emptyAndTrailingInput() {
        #expect(failure([])?.offset == 0)
        #expect(failure([0x30])?.offset == 1)
        #expect(failure([0x02, 0x01, 0x01, 0x00])?.offset == 3)
    }

    @Test func nestingDepthLimit() throws {
        func nested(_ levels: Int, indefinite: Bool) -> [UInt8] {
            if indefinite {
                return Array([[UInt8]](repeating: [0x30, 0x80], count: levels).joined())
                    + Array([[UInt8]](repeating: [0x00, 0x00], count: levels).joined())
            }
            var bytes: [UInt8] = []
            for _ in 0..<levels { bytes = B.tlv(0x30, bytes) }
            return bytes
        }
        let limit = BERReader.defaultMaxDepth
        // On a thread with the decoders' stack: nesting to the limit recurses as far as it lets.
        let (deepest, tooDeep) = try ThreadOfKnownSize.run(stackSize: DecodingStack.size) {
            (Result { for indefinite in [true, false] { _ = try BERReader(bytes: nested(limit, indefinite: indefinite)) } },
             // Far deeper than the limit last: an error, not a stack overflow.
             [nested(limit + 1, indefinite: true), nested(limit + 1, indefinite: false), nested(100_000, indefinite: true)]
                .map { bytes in failure(bytes) })
        }
        #expect(throws: Never.self) { try deepest.get() }
        #expect(tooDeep[0]?.offset == 2 * limit)
        #expect(tooDeep[1] != nil && tooDeep[2] != nil)
    }

    @Test func nodeCountLimit() throws {
        let bytes: [UInt8] = [0x30, 0x80, 0x05, 0x00, 0x05, 0x00, 0x05, 0x00, 0x00, 0x00]
        _ = try BERReader(bytes: bytes, maxNodes: 4)
        #expect(failure(bytes, maxNodes: 3)?.offset == 6)
    }

    @Test func everyTruncationThrows() {
        let bytes = B.opensslBERSignedData
        _ = try? BERReader(bytes: bytes)
        for count in 0..<bytes.count {
            #expect(failure(Array(bytes[..<count])) != nil, "prefix of \(count) bytes")
        }
    }

    /// Deterministic mutations of a valid BER encoding: each must parse or throw a DecodeError.
    @Test func mutationsNeverCrash() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let original = B.opensslBERSignedData
        for _ in 0..<3000 {
            var bytes = original
            for _ in 0...random(3) {
                bytes[random(bytes.count)] = UInt8(random(256))
            }
            do {
                _ = try CMSSignedData(bytes: bytes)
            } catch let error as DecodeError {
                #expect(error.kind == .malformedEnvelope)
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
    }
}
