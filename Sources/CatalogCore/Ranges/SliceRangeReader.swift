/// A ``RangeReader`` over a window of another: a stored zip entry inside its archive.
package final class SliceRangeReader: RangeReader {
    private let base: any RangeReader
    private let start: UInt64
    package let size: UInt64

    /// `size` bytes of `base` from `start`; the caller has checked they lie inside it.
    package init(_ base: any RangeReader, start: UInt64, size: UInt64) {
        self.base = base
        self.start = start
        self.size = size
    }

    package func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        guard count >= 0, contains(offset: offset, count: UInt64(count)) else { throw pastTheEnd(offset, count) }
        return try base.read(at: start + offset, count: count)
    }
}
