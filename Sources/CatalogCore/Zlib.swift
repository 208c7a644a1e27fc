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

    /// One inflate stream, fed on demand from `read(offset, count)` (consecutive chunks of the
    /// `compressedSize` bytes, offsets from the start of the stream) and drained a buffer at a time:
    /// the one place the package drives zlib's inflate, for whole streams (``inflate(_:compressedSize:maxOutput:dictionary:chunkSize:read:)``)
    /// and for reading a zip entry forward without holding it (``InflatingRangeReader``).
    package final class Inflater {
        private var stream = z_stream()
        private let compressedSize: UInt64
        private let dictionary: [UInt8]
        private let chunkSize: Int
        private let read: (_ offset: UInt64, _ count: Int) throws -> [UInt8]
        private var fetched: UInt64 = 0
        private var input: [UInt8] = []
        private var inputPosition = 0
        /// Whether the stream has ended: nothing more will come out.
        package private(set) var ended = false

        /// A stream that asks for a preset dictionary gets `dictionary`.
        package init(_ framing: Framing, compressedSize: UInt64, dictionary: [UInt8] = [], chunkSize: Int = 64 * 1024,
                     read: @escaping (_ offset: UInt64, _ count: Int) throws -> [UInt8]) throws {
            self.compressedSize = compressedSize
            self.dictionary = dictionary
            self.chunkSize = chunkSize
            self.read = read
            let initialised = framing == .raw ? ccatalog_inflate_init_raw(&stream) : ccatalog_inflate_init(&stream)
            guard initialised == Z_OK else { throw Error("zlib could not initialise an inflate stream") }
        }

        deinit {
            inflateEnd(&stream)
        }

        /// The compressed bytes the stream has taken (it may end before `compressedSize`).
        package var consumed: UInt64 { fetched - UInt64(input.count - inputPosition) }

        /// Inflates at most `count` bytes into `out`: at least one, unless the stream has ended
        /// (then 0). Throws when the data is invalid or runs out before the stream ends.
        package func inflate(into out: UnsafeMutablePointer<UInt8>, count wanted: Int) throws -> Int {
            // zlib counts in 32 bits; callers loop until they have all they asked for.
            let count = min(wanted, 1 << 30)
            while !ended {
                if inputPosition == input.count && fetched < compressedSize {
                    let step = Int(min(UInt64(chunkSize), compressedSize - fetched))
                    input = try read(fetched, step)
                    guard input.count == step else { throw Error("compressed data is truncated") }
                    fetched += UInt64(step)
                    inputPosition = 0
                }
                let inputLeft = input.count - inputPosition
                var status: Int32 = input.withUnsafeMutableBufferPointer { inBuffer in
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
                if status == Z_NEED_DICT && !dictionary.isEmpty {
                    status = dictionary.withUnsafeBufferPointer {
                        inflateSetDictionary(&stream, $0.baseAddress, UInt32($0.count))
                    }
                    guard status == Z_OK else { throw Error("the stream's preset dictionary is not the expected one") }
                    continue
                }
                switch status {
                case Z_STREAM_END:
                    ended = true
                    return made
                case Z_OK, Z_BUF_ERROR:
                    if made > 0 { return made }
                    if usedIn == 0 {
                        // No progress possible: the input ran out before the stream ended, or zlib is stuck.
                        let exhausted = inputPosition == input.count && fetched >= compressedSize
                        throw Error(exhausted ? "deflated data ends before the end of the stream" : "deflated data makes no progress")
                    }
                case Z_NEED_DICT:
                    throw Error("deflated data asks for a preset dictionary")
                default:
                    let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                    throw Error("invalid deflated data: \(message)")
                }
            }
            return 0
        }
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
        read: @escaping (_ offset: UInt64, _ count: Int) throws -> [UInt8]
    ) throws -> (output: [UInt8], consumed: UInt64) {
        let inflater = try Inflater(framing, compressedSize: compressedSize, dictionary: dictionary,
                                    chunkSize: chunkSize, read: read)
        var output: [UInt8] = []
        // Never trust the declared size for allocation beyond a modest up-front reservation.
        output.reserveCapacity(Int(min(maxOutput, 8 * 1024 * 1024)))
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while !inflater.ended {
            // At most one byte past the cap, so an oversized stream is detected without producing
            // (much) more than was promised.
            let produced = UInt64(output.count)
            let room = Int(min(UInt64(chunkSize), maxOutput >= produced ? maxOutput - produced + 1 : 1))
            let made = try chunk.withUnsafeMutableBufferPointer { try inflater.inflate(into: $0.baseAddress!, count: room) }
            output.append(contentsOf: chunk[0..<made])
            if UInt64(output.count) > maxOutput {
                throw Error("deflated data inflates to more than the declared \(maxOutput) bytes")
            }
        }
        return (output, inflater.consumed)
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

    /// `input` as one zlib stream made by zlib's deflate at `level` (0–9), with a preset dictionary
    /// when one is given. memLevel 9, zlib's largest hash table, has fewer collisions: less time for
    /// the same output.
    package static func deflate(_ input: [UInt8], level: Int32, dictionary: [UInt8] = []) throws -> [UInt8] {
        var stream = z_stream()
        guard ccatalog_deflate_init(&stream, level, MAX_WBITS, 9) == Z_OK else {
            throw Error("zlib could not initialise a deflate stream")
        }
        defer { deflateEnd(&stream) }
        if !dictionary.isEmpty {
            let set = dictionary.withUnsafeBufferPointer { deflateSetDictionary(&stream, $0.baseAddress, UInt32($0.count)) }
            guard set == Z_OK else { throw Error("zlib refused the preset dictionary") }
        }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))))
        let status = input.withUnsafeBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = UnsafeMutablePointer(mutating: inBuffer.baseAddress)
                stream.avail_in = UInt32(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = UInt32(outBuffer.count)
                return CCatalogZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw Error("zlib could not deflate (status \(status))") }
        output.removeLast(Int(stream.avail_out))
        return output
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
