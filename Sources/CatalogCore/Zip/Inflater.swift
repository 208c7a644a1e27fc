import CCatalogZlib

/// Raw deflate (RFC 1951, no zlib/gzip wrapper) through the system zlib, with a hard cap on output.
/// Errors carry no path; the caller adds it.
package enum Inflater {
    /// Inflates `compressedSize` bytes obtained by calling `read(offset, count)` for consecutive
    /// chunks (offsets relative to the start of the compressed data). Produces at most
    /// `maxOutput + 1` bytes before giving up with `.malformedZip` (more than `maxOutput` means the
    /// stream is bigger than declared). The caller checks the final size and the CRC.
    package static func inflateRaw(
        compressedSize: UInt64,
        maxOutput: UInt64,
        chunkSize: Int = 64 * 1024,
        read: (_ offset: UInt64, _ count: Int) throws -> [UInt8]
    ) throws -> [UInt8] {
        var stream = z_stream()
        guard ccatalog_inflate_init_raw(&stream) == Z_OK else {
            throw DecodeError(.malformedZip, "zlib could not initialise an inflate stream")
        }
        defer { inflateEnd(&stream) }

        var output: [UInt8] = []
        // Never trust the declared size for allocation beyond a modest up-front reservation.
        output.reserveCapacity(Int(min(maxOutput, 8 * 1024 * 1024)))
        var outChunk = [UInt8](repeating: 0, count: chunkSize)
        var consumed: UInt64 = 0
        var input: [UInt8] = []
        var inputPosition = 0
        var finished = false

        while !finished {
            if inputPosition == input.count && consumed < compressedSize {
                let count = Int(min(UInt64(chunkSize), compressedSize - consumed))
                input = try read(consumed, count)
                guard input.count == count else {
                    throw DecodeError(.malformedZip, "compressed data is truncated")
                }
                consumed += UInt64(count)
                inputPosition = 0
            }
            let inputLeft = input.count - inputPosition
            // Allow at most one byte past the cap so an oversized stream is detected without
            // producing (much) more than was promised.
            let produced = UInt64(output.count)
            let room = maxOutput >= produced ? maxOutput - produced + 1 : 1
            let outRoom = Int(min(UInt64(chunkSize), room))

            let status: Int32 = input.withUnsafeMutableBufferPointer { inBuffer in
                outChunk.withUnsafeMutableBufferPointer { outBuffer in
                    stream.next_in = inBuffer.baseAddress.map { $0 + inputPosition }
                    stream.avail_in = UInt32(inputLeft)
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = UInt32(outRoom)
                    let result = inflate(&stream, Z_NO_FLUSH)
                    stream.next_in = nil
                    stream.next_out = nil
                    return result
                }
            }
            let usedIn = inputLeft - Int(stream.avail_in)
            let madeOut = outRoom - Int(stream.avail_out)
            inputPosition += usedIn
            output.append(contentsOf: outChunk[0..<madeOut])
            if UInt64(output.count) > maxOutput {
                throw DecodeError(.malformedZip,
                                  "deflated data inflates to more than the declared \(maxOutput) bytes")
            }

            switch status {
            case Z_STREAM_END:
                finished = true
            case Z_OK:
                if usedIn == 0 && madeOut == 0 {
                    throw DecodeError(.malformedZip, "deflated data makes no progress")
                }
            case Z_BUF_ERROR:
                // No progress possible: either input ran out before the stream ended, or (cannot
                // happen here, as there is always output room) the output was full.
                if inputPosition == input.count && consumed >= compressedSize {
                    throw DecodeError(.malformedZip, "deflated data ends before the end of the stream")
                }
                if usedIn == 0 && madeOut == 0 {
                    throw DecodeError(.malformedZip, "deflated data makes no progress")
                }
            case Z_NEED_DICT:
                throw DecodeError(.malformedZip, "deflated data asks for a preset dictionary")
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                throw DecodeError(.malformedZip, "invalid deflated data: \(message)")
            }
        }
        return output
    }

    /// zlib's CRC-32 of `bytes`.
    package static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt = CCatalogZlib.crc32(0, nil, 0)
        bytes.withUnsafeBufferPointer { buffer in
            guard var base = buffer.baseAddress else { return }
            var left = buffer.count
            while left > 0 {
                let step = min(left, 1 << 30)
                crc = CCatalogZlib.crc32(crc, base, UInt32(step))
                base += step
                left -= step
            }
        }
        return UInt32(truncatingIfNeeded: crc)
    }
}
