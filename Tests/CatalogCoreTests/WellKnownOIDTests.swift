import Testing
@testable import CatalogCore

/// The identifiers ``WellKnownOID`` hands out as literals must be exactly what writing them out
/// arc by arc gives, and an identifier that is not in the table (or differs from one in its last
/// octet) must still be written out.
@Suite struct WellKnownOIDTests {
    /// Dotted text of DER content octets, decoded here independently of the reader.
    private static func dotted(_ octets: [UInt8]) -> String {
        var arcs: [UInt64] = []
        var value: UInt64 = 0
        for byte in octets {
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 {
                if arcs.isEmpty {
                    let first: UInt64 = value < 40 ? 0 : (value < 80 ? 1 : 2)
                    arcs += [first, value - first * 40]
                } else {
                    arcs.append(value)
                }
                value = 0
            }
        }
        return arcs.map(String.init).joined(separator: ".")
    }

    @Test func everyEntryEncodesToItsOwnText() throws {
        for text in WellKnownOID.all {
            let octets = WellKnownOID.encode(text)
            #expect(Self.dotted(octets) == text)
            let reader = try BERReader(bytes: [0x06, UInt8(octets.count)] + octets)
            #expect(try reader.objectIdentifier(reader.root, "oid") == text)
        }
        #expect(Set(WellKnownOID.all).count == WellKnownOID.all.count)
    }

    @Test func knownEncodings() {
        #expect(WellKnownOID.encode("1.2.840.113549.1.7.2") == [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02])
        #expect(WellKnownOID.encode("2.16.840.1.101.3.4.2.1") == [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01])
        #expect(WellKnownOID.encode("1.3.14.3.2.26") == [0x2B, 0x0E, 0x03, 0x02, 0x1A])
    }

    @Test func othersAreStillWrittenOut() throws {
        // id-sha224: id-sha256 but for its last octet.
        let sha224: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x04]
        #expect(WellKnownOID.dotted(sha224[...]) == nil)
        let reader = try BERReader(bytes: [0x06, UInt8(sha224.count)] + sha224)
        #expect(try reader.objectIdentifier(reader.root, "oid") == "2.16.840.1.101.3.4.2.4")
        // A prefix of a known identifier is not it.
        let prefix = Array(WellKnownOID.encode("1.2.840.113549.1.7.2").dropLast())
        #expect(WellKnownOID.dotted(prefix[...]) == nil)
    }
}
