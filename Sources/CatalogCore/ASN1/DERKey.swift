/// DER bytes (a certificate, a public key) as a dictionary key. Equal keys have equal bytes; the
/// hash reads the length and the last bytes only, since hashing every certificate a profile's
/// envelope and list carry in full was a visible part of decoding it. The end of
/// a certificate is its signature and the end of a public key is its modulus or point, so distinct
/// keys differ there; a collision costs a byte comparison, never a wrong answer.
///
/// Equality is ``ByteComparison/equal(_:_:)``: every hit compares a whole certificate.
/// Kept for speed: cold ingest (bench.py).
struct DERKey: Hashable, Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static func == (lhs: DERKey, rhs: DERKey) -> Bool { ByteComparison.equal(lhs.bytes, rhs.bytes) }

    func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0.suffix(64))) }
    }
}
