/// A device identifier as ``DeviceIDTable`` keeps it: its UTF-8 in five words when it is at most 40
/// bytes (both UDID spellings are), so that a lookup compares words in the table's own slot. With
/// `String` keys, every hit compared the text with a key stored elsewhere in memory, a cache miss
/// each time, and most of the time the writer spent finding the ids of a profile's devices went
/// there. A longer identifier is not short: the table keeps it by its text.
/// Kept for speed: cold ingest (bench.py).
struct DeviceKey: Equatable {
    private var words: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
    /// The identifier's UTF-8 length.
    private var count = 0

    init(_ udid: String) {
        var text = udid
        count = text.withUTF8 { bytes in
            guard bytes.count <= 40 else { return bytes.count }
            withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
            return bytes.count
        }
    }

    /// Whether the words hold the whole identifier.
    var isShort: Bool { count <= 40 }

    static func == (lhs: DeviceKey, rhs: DeviceKey) -> Bool {
        lhs.count == rhs.count && lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1
            && lhs.words.2 == rhs.words.2 && lhs.words.3 == rhs.words.3 && lhs.words.4 == rhs.words.4
    }

    /// A hash of a short key's words, the same in every run: a multiply and a shift a word
    /// (`Hasher`'s SipHash over six words was a third of a lookup's time). Not for untrusted keys
    /// in a table that must resist collisions; here a collision only costs a probe.
    var mixedHash: UInt64 {
        func mix(_ value: UInt64) -> UInt64 {
            let product = value &* 0x9E37_79B9_7F4A_7C15
            return product ^ (product >> 29)
        }
        var hash = mix(UInt64(count))
        hash = mix(hash ^ words.0)
        hash = mix(hash ^ words.1)
        hash = mix(hash ^ words.2)
        hash = mix(hash ^ words.3)
        hash = mix(hash ^ words.4)
        return hash
    }
}
