/// Integers and byte runs read from bytes a file supplied, in the byte order each read names: at an
/// offset from the start, or in sequence from a position that advances. Every read is bounds-checked
/// and throws ``OutOfBounds`` past the end, so a count or offset taken from the bytes can never index
/// outside them; each caller turns that into its own error.
package struct ByteReader {
    package enum ByteOrder: Sendable { case littleEndian, bigEndian }

    /// A read that would leave the bytes.
    package struct OutOfBounds: Error {}

    private let bytes: ArraySlice<UInt8>
    /// How many bytes the sequential reads have consumed.
    package private(set) var position = 0

    package init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }
    package init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

    package var count: Int { bytes.count }
    package var isAtEnd: Bool { position >= bytes.count }
    /// The bytes the sequential reads have not consumed.
    package var rest: ArraySlice<UInt8> { bytes[(bytes.startIndex + position)...] }

    // MARK: At an offset

    /// The `count` bytes at `offset`, sharing the reader's storage.
    package func bytes(at offset: Int, count: Int) throws(OutOfBounds) -> ArraySlice<UInt8> {
        guard offset >= 0, count >= 0, offset <= bytes.count, count <= bytes.count - offset else { throw OutOfBounds() }
        let start = bytes.startIndex + offset
        return bytes[start..<start + count]
    }

    package func uint8(at offset: Int) throws(OutOfBounds) -> UInt8 { try integer(at: offset, .bigEndian) }
    package func uint16(at offset: Int, _ order: ByteOrder) throws(OutOfBounds) -> UInt16 { try integer(at: offset, order) }
    package func uint32(at offset: Int, _ order: ByteOrder) throws(OutOfBounds) -> UInt32 { try integer(at: offset, order) }
    package func uint64(at offset: Int, _ order: ByteOrder) throws(OutOfBounds) -> UInt64 { try integer(at: offset, order) }

    /// The NUL-terminated UTF-8 string at `offset` (invalid bytes become U+FFFD); out of bounds when no
    /// NUL ends it.
    package func cString(at offset: Int) throws(OutOfBounds) -> String {
        guard offset >= 0, offset < bytes.count, let end = bytes[(bytes.startIndex + offset)...].firstIndex(of: 0) else {
            throw OutOfBounds()
        }
        return String(decoding: bytes[(bytes.startIndex + offset)..<end], as: UTF8.self)
    }

    private func integer<Value: FixedWidthInteger>(at offset: Int, _ order: ByteOrder) throws(OutOfBounds) -> Value {
        var value = Value.zero
        for byte in try bytes(at: offset, count: MemoryLayout<Value>.size) { value = value << 8 | Value(byte) }
        return order == .bigEndian ? value : value.byteSwapped
    }

    // MARK: In sequence

    /// The next `count` bytes, sharing the reader's storage.
    package mutating func readBytes(_ count: Int) throws(OutOfBounds) -> ArraySlice<UInt8> {
        let run = try bytes(at: position, count: count)
        position += count
        return run
    }

    package mutating func readUInt8() throws(OutOfBounds) -> UInt8 { try next(.bigEndian) }
    package mutating func readUInt16(_ order: ByteOrder) throws(OutOfBounds) -> UInt16 { try next(order) }
    package mutating func readUInt32(_ order: ByteOrder) throws(OutOfBounds) -> UInt32 { try next(order) }
    package mutating func readUInt64(_ order: ByteOrder) throws(OutOfBounds) -> UInt64 { try next(order) }

    private mutating func next<Value: FixedWidthInteger>(_ order: ByteOrder) throws(OutOfBounds) -> Value {
        let value: Value = try integer(at: position, order)
        position += MemoryLayout<Value>.size
        return value
    }
}
