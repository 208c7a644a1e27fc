import CCatalogZlib

/// The system zlib, the package's one deflate and inflate: raw deflate streams (RFC 1951) for zip
/// entries, zlib streams (RFC 1950) with a preset dictionary for the catalogue's stored plists, and
/// CRC-32 for both.
package enum Zlib {
    /// Why a stream did not inflate or deflate. Carries no path; the caller adds it.
    package struct Error: Swift.Error, CustomStringConvertible, Sendable {
        package let description: String

        init(_ description: String) { self.description = description }
    }

    /// How a stream is framed: bare deflate, or zlib's header and Adler-32 around it.
    package enum Framing: Sendable {
        case raw
        case zlib
    }

    /// Inflates the `compressedSize` bytes that `read(offset, count)` returns in consecutive chunks
    /// (offsets from the start of the stream). Produces at most `maxOutput + 1` bytes before it
    /// throws (more than `maxOutput` means the stream is bigger than declared); a stream that asks
    /// for a preset dictionary gets `dictionary`. Returns the output and how many input bytes the
    /// stream took (it may end before `compressedSize`). The caller checks the size and checksum.
    package static func inflate(
        _ framing: Framing,
        compressedSize: UInt64,
        maxOutput: UInt64,
        dictionary: [UInt8] = [],
        chunkSize: Int = 64 * 1024,
        read: (_ offset: UInt64, _ count: Int) throws -> [UInt8]
    ) throws -> (output: [UInt8], consumed: UInt64) {
        var stream = z_stream()
        let initialised = framing == .raw ? ccatalog_inflate_init_raw(&stream) : ccatalog_inflate_init(&stream)
        guard initialised == Z_OK else { throw Error("zlib could not initialise an inflate stream") }
        defer { inflateEnd(&stream) }

        var output: [UInt8] = []
        // Never trust the declared size for allocation beyond a modest up-front reservation.
        output.reserveCapacity(Int(min(maxOutput, 8 * 1024 * 1024)))
        var outChunk = [UInt8](repeating: 0, count: chunkSize)
        var consumed: UInt64 = 0
        var input: [UInt8] = []
        var inputPosition = 0

        while true {
            if inputPosition == input.count && consumed < compressedSize {
                let count = Int(min(UInt64(chunkSize), compressedSize - consumed))
                input = try read(consumed, count)
                guard input.count == count else { throw Error("compressed data is truncated") }
                consumed += UInt64(count)
                inputPosition = 0
            }
            let inputLeft = input.count - inputPosition
            // At most one byte past the cap, so an oversized stream is detected without producing
            // (much) more than was promised.
            let produced = UInt64(output.count)
            let room = maxOutput >= produced ? maxOutput - produced + 1 : 1
            let outRoom = Int(min(UInt64(chunkSize), room))

            var status: Int32 = input.withUnsafeMutableBufferPointer { inBuffer in
                outChunk.withUnsafeMutableBufferPointer { outBuffer in
                    stream.next_in = inBuffer.baseAddress.map { $0 + inputPosition }
                    stream.avail_in = UInt32(inputLeft)
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = UInt32(outRoom)
                    let result = CCatalogZlib.inflate(&stream, Z_NO_FLUSH)
                    stream.next_in = nil
                    stream.next_out = nil
                    return result
                }
            }
            if status == Z_NEED_DICT && !dictionary.isEmpty {
                status = dictionary.withUnsafeBufferPointer {
                    inflateSetDictionary(&stream, $0.baseAddress, UInt32($0.count))
                }
                guard status == Z_OK else { throw Error("the stream's preset dictionary is not the expected one") }
            }
            let usedIn = inputLeft - Int(stream.avail_in)
            let madeOut = outRoom - Int(stream.avail_out)
            inputPosition += usedIn
            output.append(contentsOf: outChunk[0..<madeOut])
            if UInt64(output.count) > maxOutput {
                throw Error("deflated data inflates to more than the declared \(maxOutput) bytes")
            }

            switch status {
            case Z_STREAM_END:
                return (output, consumed - UInt64(input.count - inputPosition))
            case Z_OK:
                if usedIn == 0 && madeOut == 0 { throw Error("deflated data makes no progress") }
            case Z_BUF_ERROR:
                // No progress possible: the input ran out before the stream ended (there is always
                // output room).
                if inputPosition == input.count && consumed >= compressedSize {
                    throw Error("deflated data ends before the end of the stream")
                }
                if usedIn == 0 && madeOut == 0 { throw Error("deflated data makes no progress") }
            case Z_NEED_DICT:
                throw Error("deflated data asks for a preset dictionary")
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                throw Error("invalid deflated data: \(message)")
            }
        }
    }

    /// Inflates `input`, one whole zlib stream and nothing after it, to at most `maxOutput` bytes.
    package static func inflate(_ input: [UInt8], dictionary: [UInt8] = [], maxOutput: Int) throws -> [UInt8] {
        let (output, consumed) = try inflate(.zlib, compressedSize: UInt64(input.count), maxOutput: UInt64(maxOutput),
                                             dictionary: dictionary) { offset, count in
            Array(input[Int(offset)..<Int(offset) + count])
        }
        guard consumed == UInt64(input.count) else { throw Error("bytes follow the end of the deflated data") }
        return output
    }

    /// zlib's deflate into zlib streams with a preset dictionary, one stream kept for many inputs
    /// (reset for each). Not thread-safe: one thread at a time uses it (`@unchecked Sendable` so it
    /// can be handed from one thread to the next).
    package final class Deflater: @unchecked Sendable {
        private var stream = z_stream()
        private let ready: Bool
        private let dictionary: [UInt8]

        /// `level`: zlib's 0–9.
        package init(level: Int32, dictionary: [UInt8] = []) {
            self.dictionary = dictionary
            ready = ccatalog_deflate_init(&stream, level, MAX_WBITS, 8) == Z_OK
        }

        deinit {
            if ready { deflateEnd(&stream) }
        }

        /// `input` as one zlib stream.
        package func deflate(_ input: [UInt8]) throws -> [UInt8] {
            guard ready, deflateReset(&stream) == Z_OK else { throw Error("zlib could not initialise a deflate stream") }
            if !dictionary.isEmpty {
                let set = dictionary.withUnsafeBufferPointer {
                    deflateSetDictionary(&stream, $0.baseAddress, UInt32($0.count))
                }
                guard set == Z_OK else { throw Error("zlib refused the preset dictionary") }
            }
            var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))))
            let status = input.withUnsafeBufferPointer { inBuffer in
                output.withUnsafeMutableBufferPointer { outBuffer in
                    stream.next_in = UnsafeMutablePointer(mutating: inBuffer.baseAddress)
                    stream.avail_in = UInt32(inBuffer.count)
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = UInt32(outBuffer.count)
                    let result = CCatalogZlib.deflate(&stream, Z_FINISH)
                    stream.next_in = nil
                    stream.next_out = nil
                    return result
                }
            }
            guard status == Z_STREAM_END else { throw Error("zlib could not deflate (status \(status))") }
            output.removeLast(Int(stream.avail_out))
            return output
        }
    }

    /// zlib's CRC-32 of `bytes`.
    package static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            var crc: UInt = CCatalogZlib.crc32(0, nil, 0)
            guard var base = buffer.baseAddress else { return UInt32(truncatingIfNeeded: crc) }
            var left = buffer.count
            while left > 0 {
                let step = min(left, 1 << 30)
                crc = CCatalogZlib.crc32(crc, base, UInt32(step))
                base += step
                left -= step
            }
            return UInt32(truncatingIfNeeded: crc)
        }
    }
}
