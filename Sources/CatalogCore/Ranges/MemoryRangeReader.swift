/// A ``RangeReader`` over bytes already in memory.
package final class MemoryRangeReader: RangeReader {
    private let bytes: [UInt8]

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    package var size: UInt64 { UInt64(bytes.count) }

    package func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        guard count >= 0, contains(offset: offset, count: UInt64(count)) else { throw pastTheEnd(offset, count) }
        let start = Int(offset)
        return Array(bytes[start..<start + count])
    }
}
