/// Sequential little-endian reads from bytes; every read is bounds-checked and returns nil when the
/// bytes run out.
package struct ByteReader {
    package let bytes: ArraySlice<UInt8>
    /// How many bytes have been read.
    package private(set) var position = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes[...] }
    package init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    package var isAtEnd: Bool { position >= bytes.count }

    /// The bytes not read yet.
    package var rest: ArraySlice<UInt8> { bytes[(bytes.startIndex + position)...] }

    /// The next `count` bytes, sharing the reader's storage.
    package mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, bytes.count - position >= count else { return nil }
        let start = bytes.startIndex + position
        position += count
        return bytes[start..<(start + count)]
    }

    package mutating func u8() -> UInt8? { take(1).map { $0[$0.startIndex] } }
    package mutating func u16() -> UInt16? { take(2).map { UInt16($0.littleEndian(2)) } }
    package mutating func u32() -> UInt32? { take(4).map { UInt32($0.littleEndian(4)) } }
    package mutating func u64() -> UInt64? { take(8).map { $0.littleEndian(8) } }
}

private extension ArraySlice<UInt8> {
    /// The first `count` bytes as a little-endian integer.
    func littleEndian(_ count: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<count { value |= UInt64(self[startIndex + index]) << (8 * index) }
        return value
    }
}
