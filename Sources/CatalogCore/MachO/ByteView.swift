/// Integers read from bytes in one byte order, every read bounds-checked: nil past the end, so a
/// length or offset taken from a file can never index outside it.
struct ByteView {
    let bytes: ArraySlice<UInt8>
    let bigEndian: Bool

    init(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) {
        self.bytes = bytes
        self.bigEndian = bigEndian
    }

    init(_ bytes: [UInt8], bigEndian: Bool) {
        self.init(bytes[...], bigEndian: bigEndian)
    }

    var count: Int { bytes.count }

    func u8(_ offset: Int) -> UInt8? {
        guard offset >= 0, offset < bytes.count else { return nil }
        return bytes[bytes.startIndex + offset]
    }

    func u32(_ offset: Int) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        let i = bytes.startIndex + offset
        let (b0, b1, b2, b3) = (UInt32(bytes[i]), UInt32(bytes[i + 1]), UInt32(bytes[i + 2]), UInt32(bytes[i + 3]))
        return bigEndian ? b0 << 24 | b1 << 16 | b2 << 8 | b3 : b3 << 24 | b2 << 16 | b1 << 8 | b0
    }

    func u64(_ offset: Int) -> UInt64? {
        guard let first = u32(offset), let second = u32(offset + 4) else { return nil }
        return bigEndian ? UInt64(first) << 32 | UInt64(second) : UInt64(second) << 32 | UInt64(first)
    }

    /// `count` bytes at `offset`, or nil when they do not all lie inside.
    func slice(_ offset: Int, _ count: Int) -> ArraySlice<UInt8>? {
        guard offset >= 0, count >= 0, offset <= bytes.count, count <= bytes.count - offset else { return nil }
        let start = bytes.startIndex + offset
        return bytes[start..<start + count]
    }

    /// The NUL-terminated UTF-8 string at `offset` (invalid bytes become U+FFFD), or nil when the
    /// offset is outside or no NUL ends it before the end.
    func cString(_ offset: Int) -> String? {
        guard offset >= 0, offset < bytes.count else { return nil }
        let start = bytes.startIndex + offset
        guard let end = bytes[start...].firstIndex(of: 0) else { return nil }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
