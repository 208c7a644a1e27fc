/// DER bytes (a certificate, a public key) as a dictionary key. Equal keys have equal bytes; the
/// hash reads the length and the last 64 bytes only. Hashing all of a certificate's 1–2 KB, for
/// each of the six a profile's envelope and list carry, was 4 % of decoding a profile. The end of
/// a certificate is its signature and the end of a public key is its modulus or point, so distinct
/// keys differ there; a collision costs a byte comparison, never a wrong answer.
///
/// Equality is ``ByteComparison/equal(_:_:)``: every hit compares a whole certificate.
struct DERKey: Hashable, Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static func == (lhs: DERKey, rhs: DERKey) -> Bool { ByteComparison.equal(lhs.bytes, rhs.bytes) }

    func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0.suffix(64))) }
    }
}
