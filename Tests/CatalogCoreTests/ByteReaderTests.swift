import Testing
@testable import CatalogCore

@Suite struct ByteReaderTests {
    static let bytes: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09]

    @Test func integersAtAnOffsetInEitherByteOrder() throws {
        let reader = ByteReader(Self.bytes)
        #expect(try reader.uint8(at: 8) == 0x09)
        #expect(try reader.uint16(at: 1, .bigEndian) == 0x0203)
        #expect(try reader.uint16(at: 1, .littleEndian) == 0x0302)
        #expect(try reader.uint32(at: 0, .bigEndian) == 0x0102_0304)
        #expect(try reader.uint32(at: 0, .littleEndian) == 0x0403_0201)
        #expect(try reader.uint64(at: 1, .bigEndian) == 0x0203_0405_0607_0809)
        #expect(try reader.uint64(at: 1, .littleEndian) == 0x0908_0706_0504_0302)
        #expect(Array(try reader.bytes(at: 7, count: 2)) == [0x08, 0x09])
        #expect(try reader.bytes(at: 9, count: 0).isEmpty)
    }

    /// The last whole read fits; one byte more, a negative offset or count, or an offset whose sum
    /// with the count overflows throws instead of trapping.
    @Test func readsPastTheEdgeThrow() throws {
        let reader = ByteReader(Self.bytes)
        #expect(try reader.uint32(at: 5, .littleEndian) == 0x0908_0706)
        #expect(throws: ByteReader.OutOfBounds.self) { try reader.uint32(at: 6, .littleEndian) }
        #expect(throws: ByteReader.OutOfBounds.self) { try reader.uint64(at: 2, .bigEndian) }
        #expect(throws: ByteReader.OutOfBounds.self) { try reader.uint8(at: 9) }
        #expect(throws: ByteReader.OutOfBounds.self) { try reader.uint8(at: -1) }
        #expect(throws: ByteReader.OutOfBounds.self) { try reader.bytes(at: 10, count: 0) }
        #expect(throws: ByteReader.OutOfBounds.self) { try reader.bytes(at: 0, count: -1) }
        #expect(throws: ByteReader.OutOfBounds.self) { try reader.bytes(at: 1, count: Int.max) }
        #expect(throws: ByteReader.OutOfBounds.self) { try reader.bytes(at: Int.max, count: Int.max) }
    }

    @Test func sequentialReadsAdvanceAndStopAtTheEnd() throws {
        var reader = ByteReader(Self.bytes)
        #expect(try reader.readUInt8() == 0x01)
        #expect(try reader.readUInt16(.bigEndian) == 0x0203)
        #expect(try reader.readUInt32(.littleEndian) == 0x0706_0504)
        #expect(reader.position == 7)
        #expect(throws: ByteReader.OutOfBounds.self) { try reader.readUInt32(.littleEndian) }
        #expect(reader.position == 7, "a failed read consumes nothing")
        #expect(Array(reader.rest) == [0x08, 0x09])
        #expect(Array(try reader.readBytes(2)) == [0x08, 0x09])
        #expect(reader.isAtEnd)
        #expect(throws: ByteReader.OutOfBounds.self) { try reader.readUInt8() }
        #expect(try reader.readBytes(0).isEmpty)
    }

    /// Offsets count from the start of the slice given, not of the array it came from.
    @Test func aSliceIsReadFromItsOwnStart() throws {
        var reader = ByteReader(Self.bytes[4..<8])
        #expect(reader.count == 4)
        #expect(try reader.uint16(at: 2, .littleEndian) == 0x0807)
        #expect(throws: ByteReader.OutOfBounds.self) { try reader.uint8(at: 4) }
        #expect(throws: ByteReader.OutOfBounds.self) { try reader.readUInt64(.bigEndian) }
        #expect(try reader.readUInt32(.bigEndian) == 0x0506_0708)
    }

    @Test func cStringsEndAtTheirNul() throws {
        let reader = ByteReader(Array("team\0id\0tail".utf8))
        #expect(try reader.cString(at: 0) == "team")
        #expect(try reader.cString(at: 5) == "id")
        #expect(try reader.cString(at: 7) == "")
        #expect(throws: ByteReader.OutOfBounds.self) { try reader.cString(at: 8) }
        #expect(throws: ByteReader.OutOfBounds.self) { try reader.cString(at: 12) }
        #expect(throws: ByteReader.OutOfBounds.self) { try reader.cString(at: -1) }
    }
}
