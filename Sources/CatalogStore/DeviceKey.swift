/// A device identifier as the writer's dictionary key, its UTF-8 held in the key itself when it is
/// at most 40 bytes (both UDID spellings are): a lookup then compares words in the dictionary's own
/// storage. With `String` keys, every hit compared the text with a key stored elsewhere in memory,
/// a cache miss each time: three quarters of the time the writer spent finding the ids of a
/// profile's devices (292,000 lookups in a cold ingest of the bench tree). A longer identifier keeps
/// its text in `long`.
struct DeviceKey: Hashable {
    private var words: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
    private var count = 0
    private var long: String?

    init(_ udid: String) {
        var text = udid
        count = text.withUTF8 { bytes in
            guard bytes.count <= 40 else { return bytes.count }
            withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
            return bytes.count
        }
        if count > 40 { long = udid }
    }

    static func == (lhs: DeviceKey, rhs: DeviceKey) -> Bool {
        lhs.count == rhs.count && lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1
            && lhs.words.2 == rhs.words.2 && lhs.words.3 == rhs.words.3 && lhs.words.4 == rhs.words.4
            && lhs.long == rhs.long
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
        hasher.combine(words.4)
        if let long { hasher.combine(long) }
    }
}
