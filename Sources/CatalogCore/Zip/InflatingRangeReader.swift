import CCatalogZlib

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
    private var stream = z_stream()
    private var isOpen = false
    /// Compressed bytes consumed, and inflated bytes produced (and dropped or returned) so far.
    private var consumed: UInt64 = 0
    private var position: UInt64 = 0
    private var input: [UInt8] = []
    private var inputPosition = 0
    private var ended = false

    static let chunkSize = 64 * 1024

    /// `compressed` holds the raw deflate stream; `size` is the entry's declared uncompressed size.
    package init(compressed: any RangeReader, size: UInt64) {
        self.compressed = compressed
        self.size = size
    }

    deinit {
        if isOpen { inflateEnd(&stream) }
    }

    package func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        guard count >= 0, contains(offset: offset, count: UInt64(count)) else { throw pastTheEnd(offset, count) }
        if offset < position || !isOpen { try restart() }
        var skip = offset - position
        var scratch = [UInt8](repeating: 0, count: Self.chunkSize)
        while skip > 0 {
            let step = Int(min(skip, UInt64(Self.chunkSize)))
            let made = try inflate(into: &scratch, count: step)
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
        if isOpen {
            inflateEnd(&stream)
            isOpen = false
        }
        stream = z_stream()
        guard ccatalog_inflate_init_raw(&stream) == Z_OK else {
            throw DecodeError(.malformedZip, "zlib could not initialise an inflate stream")
        }
        isOpen = true
        consumed = 0
        position = 0
        input = []
        inputPosition = 0
        ended = false
    }

    private func inflate(into buffer: inout [UInt8], count: Int) throws -> Int {
        try buffer.withUnsafeMutableBufferPointer { try inflate(into: $0.baseAddress!, count: count) }
    }

    /// Inflates between 1 and `count` bytes into `out`, reading compressed input as needed.
    private func inflate(into out: UnsafeMutablePointer<UInt8>, count wanted: Int) throws -> Int {
        // zlib counts in 32 bits; callers loop until they have all they asked for.
        let count = min(wanted, 1 << 30)
        while true {
            guard !ended else {
                throw DecodeError(.malformedZip, "deflated data ends at \(position) bytes, before the declared \(size)")
            }
            if inputPosition == input.count && consumed < compressed.size {
                let step = Int(min(UInt64(Self.chunkSize), compressed.size - consumed))
                input = try compressed.read(at: consumed, count: step)
                consumed += UInt64(step)
                inputPosition = 0
            }
            let inputLeft = input.count - inputPosition
            let status: Int32 = input.withUnsafeMutableBufferPointer { inBuffer in
                stream.next_in = inBuffer.baseAddress.map { $0 + inputPosition }
                stream.avail_in = UInt32(inputLeft)
                stream.next_out = out
                stream.avail_out = UInt32(count)
                let result = CCatalogZlib.inflate(&stream, Z_NO_FLUSH)
                stream.next_in = nil
                stream.next_out = nil
                return result
            }
            let usedIn = inputLeft - Int(stream.avail_in)
            let made = count - Int(stream.avail_out)
            inputPosition += usedIn
            position += UInt64(made)
            guard position <= size else {
                throw DecodeError(.malformedZip, "deflated data inflates to more than the declared \(size) bytes")
            }
            switch status {
            case Z_STREAM_END:
                ended = true
                if made > 0 { return made }
            case Z_OK, Z_BUF_ERROR:
                if made > 0 { return made }
                if usedIn == 0 {
                    let exhausted = inputPosition == input.count && consumed >= compressed.size
                    throw DecodeError(.malformedZip, exhausted ? "deflated data ends before the end of the stream"
                                                               : "deflated data makes no progress")
                }
            case Z_NEED_DICT:
                throw DecodeError(.malformedZip, "deflated data asks for a preset dictionary")
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                throw DecodeError(.malformedZip, "invalid deflated data: \(message)")
            }
        }
    }
}
