/// DER bytes as a dictionary key, hashed in one pass over the buffer. `[UInt8]`'s own hashing feeds
/// the hasher one byte at a time: looking a 1.5 KB certificate up in the decoders' caches cost more
/// than a tenth of what parsing it again would (issue 15).
struct DERKey: Hashable, Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
