/// The object identifiers every profile's envelope carries, as string literals found by their DER
/// content: a CMS envelope names about ten (content types, digests, signed attributes, the
/// signature algorithm), and writing each in dotted form made a heap string of 20 characters a
/// time. A literal costs no allocation and no reference counting. Any other identifier is written
/// out digit by digit, as before; `WellKnownOIDTests` checks that both give the same text.
enum WellKnownOID {
    static let all: [String] = [
        "1.2.840.113549.1.7.1",      // id-data
        "1.2.840.113549.1.7.2",      // id-signedData
        "1.2.840.113549.1.9.3",      // contentType
        "1.2.840.113549.1.9.4",      // messageDigest
        "1.2.840.113549.1.9.5",      // signingTime
        "1.2.840.113549.1.1.1",      // rsaEncryption
        "1.2.840.113549.1.1.5",      // sha1WithRSAEncryption
        "1.2.840.113549.1.1.11",     // sha256WithRSAEncryption
        "1.2.840.113549.1.1.12",     // sha384WithRSAEncryption
        "1.2.840.113549.1.1.13",     // sha512WithRSAEncryption
        "1.2.840.10045.2.1",         // id-ecPublicKey
        "1.2.840.10045.4.3.2",       // ecdsa-with-SHA256
        "1.2.840.10045.4.3.3",       // ecdsa-with-SHA384
        "1.3.14.3.2.26",             // id-sha1
        "2.16.840.1.101.3.4.2.1",    // id-sha256
        "2.16.840.1.101.3.4.2.2",    // id-sha384
        "2.16.840.1.101.3.4.2.3",    // id-sha512
    ]

    /// Each identifier's DER content octets, with its text.
    private static let table: [(octets: [UInt8], dotted: String)] = all.map { (encode($0), $0) }

    /// The literal for `octets` when they are one of ``all``; nil otherwise.
    static func dotted(_ octets: ArraySlice<UInt8>) -> String? {
        // Five to ten octets: the length and the last octet rule out almost every entry before
        // the bytes are compared.
        guard let last = octets.last else { return nil }
        for entry in table where entry.octets.count == octets.count && entry.octets[entry.octets.count - 1] == last {
            if entry.octets.elementsEqual(octets) { return entry.dotted }
        }
        return nil
    }

    /// The DER content octets of a dotted identifier (X.690 §8.19): the first two arcs as one,
    /// then each arc in base 128, high bit set on all but its last octet.
    static func encode(_ dotted: String) -> [UInt8] {
        let arcs = dotted.split(separator: ".").map { UInt64($0)! }
        var out: [UInt8] = []
        for arc in [arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2) {
            var septets = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 {
                septets.append(UInt8(rest & 0x7F) | 0x80)
                rest >>= 7
            }
            out.append(contentsOf: septets.reversed())
        }
        return out
    }
}
