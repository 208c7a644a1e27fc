/// A ``RangeReader`` over a deflated zip entry that keeps only the ranges asked for: it inflates
/// forward, dropping what lies before the next range, so a huge executable costs its inflating
/// time but not its size in memory. A range before the current position restarts the stream from
/// the beginning (the Mach-O reader asks in increasing order, so that is rare).
///
/// The inflated size is held to the entry's declared size; the CRC-32 is not checked, as the
/// entry is seldom inflated to its end.
package final class InflatingRangeReader: RangeReader {
    private let compressed: any RangeReader
    package let size: UInt64
    private var inflater: Zlib.Inflater?
    /// Inflated bytes produced (and dropped or returned) so far.
    private var position: UInt64 = 0

    static let chunkSize = 64 * 1024

    /// `compressed` holds the raw deflate stream; `size` is the entry's declared uncompressed size.
    package init(compressed: any RangeReader, size: UInt64) {
        self.compressed = compressed
        self.size = size
    }

    package func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        guard count >= 0, contains(offset: offset, count: UInt64(count)) else { throw pastTheEnd(offset, count) }
        if offset < position || inflater == nil { try restart() }
        var skip = offset - position
        var scratch = [UInt8](repeating: 0, count: Self.chunkSize)
        while skip > 0 {
            let step = Int(min(skip, UInt64(Self.chunkSize)))
            let made = try scratch.withUnsafeMutableBufferPointer { try inflate(into: $0.baseAddress!, count: step) }
            skip -= UInt64(made)
        }
        var output = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let made = try output.withUnsafeMutableBufferPointer { buffer in
                try inflate(into: buffer.baseAddress! + filled, count: count - filled)
            }
            filled += made
        }
        return output
    }

    private func restart() throws {
        let compressed = compressed
        do {
            inflater = try Zlib.Inflater(.raw, compressedSize: compressed.size, chunkSize: Self.chunkSize) { offset, count in
                try compressed.read(at: offset, count: count)
            }
        } catch let error as Zlib.Error {
            throw DecodeError(.malformedZip, error.description)
        }
        position = 0
    }

    /// Inflates between 1 and `count` bytes into `out`, held to the declared size.
    private func inflate(into out: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
        guard let inflater else { throw DecodeError(.malformedZip, "zlib could not initialise an inflate stream") }
        let made: Int
        do {
            made = try inflater.inflate(into: out, count: count)
        } catch let error as Zlib.Error {
            throw DecodeError(.malformedZip, error.description)
        }
        guard made > 0 else {
            throw DecodeError(.malformedZip, "deflated data ends at \(position) bytes, before the declared \(size)")
        }
        position += UInt64(made)
        guard position <= size else {
            throw DecodeError(.malformedZip, "deflated data inflates to more than the declared \(size) bytes")
        }
        return made
    }
}
