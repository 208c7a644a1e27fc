/// Reads a compact plist's fields, throwing at the end of the bytes.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], from offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    var atEnd: Bool { offset >= bytes.count }

    mutating func byte() throws -> UInt8 {
        guard offset < bytes.count else { throw CompactPlistError("truncated") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func bytes(_ count: Int) throws -> [UInt8] {
        Array(try slice(count))
    }

    /// The next `count` bytes, sharing the reader's storage (no copy).
    mutating func slice(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count - offset else { throw CompactPlistError("truncated") }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func uint32() throws -> UInt32 {
        var value: UInt32 = 0
        for shift in stride(from: 0, to: 32, by: 8) { value |= UInt32(try byte()) << UInt32(shift) }
        return value
    }

    mutating func varint() throws -> Int {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try byte()
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
            guard shift < 35 else { throw CompactPlistError("length out of range") }
        }
        return Int(value)
    }
}
