import CCatalogZlib
import Foundation

/// zlib streams (RFC 1950) with a preset dictionary, in memory, for ``CompactPlist``.
enum Zlib {
    /// zlib's own encoder, kept for many small inputs (reset for each). Since issue 15's eighth
    /// pass the compact plist's templates are deflated by ``FixedHuffmanDeflater``, and by this only
    /// where its dynamic codes come out smaller (``CompactPlist/Compressor``); catalogues hold
    /// values this made before, and the tests make such values with it. Not thread-safe: one thread
    /// at a time.
    final class Deflater {
        /// Level 3, not zlib's default 6: its shorter match search deflates a template in about
        /// three quarters of the time (zlib's share of a cold ingest of the bench tree: 10.4–11.3 %
        /// → 8.3–9.0 %) for 82 KB more in a catalogue of 84.7 MB. An 8 KB window and a smaller hash
        /// table (memLevel 6) lose nothing on templates of a few KB and halve the cost of a reset.
        /// Any inflater reads any level's stream, so catalogues written at level 6 read the same.
        private static let level: Int32 = 3
        private static let windowBits: Int32 = 13
        private static let memLevel: Int32 = 6
        private var stream = z_stream()
        private let ready: Bool

        init() {
            ready = ccatalog_deflate_init(&stream, Self.level, Self.windowBits, Self.memLevel) == Z_OK
        }

        deinit {
            if ready { deflateEnd(&stream) }
        }

        func deflate(_ input: [UInt8], dictionary: [UInt8]) -> [UInt8]? {
            guard ready, deflateReset(&stream) == Z_OK else { return nil }
            let dictionaryOK = dictionary.withUnsafeBufferPointer {
                deflateSetDictionary(&stream, $0.baseAddress, UInt32($0.count)) == Z_OK
            }
            guard dictionaryOK else { return nil }
            let bound = Int(deflateBound(&stream, UInt(input.count)))
            var input = input
            var output = [UInt8](repeating: 0, count: bound)
            let status = input.withUnsafeMutableBufferPointer { inBuffer in
                output.withUnsafeMutableBufferPointer { outBuffer in
                    stream.next_in = inBuffer.baseAddress
                    stream.avail_in = UInt32(inBuffer.count)
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = UInt32(outBuffer.count)
                    let result = CCatalogZlib.deflate(&stream, Z_FINISH)
                    stream.next_in = nil
                    stream.next_out = nil
                    return result
                }
            }
            guard status == Z_STREAM_END else { return nil }
            output.removeLast(Int(stream.avail_out))
            return output
        }
    }

    /// Inflates a stream made by ``Deflater``; nil when it is damaged or would exceed `limit`.
    static func inflate(_ input: [UInt8], dictionary: [UInt8], limit: Int) -> [UInt8]? {
        var stream = z_stream()
        guard ccatalog_inflate_init(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var input = input
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        return input.withUnsafeMutableBufferPointer { inBuffer -> [UInt8]? in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = UInt32(inBuffer.count)
            defer { stream.next_in = nil }
            while true {
                let (status, made) = chunk.withUnsafeMutableBufferPointer { outBuffer -> (Int32, Int) in
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = UInt32(outBuffer.count)
                    let result = inflateStep(&stream, Z_NO_FLUSH, dictionary: dictionary)
                    stream.next_out = nil
                    return (result, outBuffer.count - Int(stream.avail_out))
                }
                output.append(contentsOf: chunk[0..<made])
                guard output.count <= limit else { return nil }
                switch status {
                case Z_STREAM_END: return stream.avail_in == 0 ? output : nil
                case Z_OK: if made == 0 && stream.avail_in == 0 { return nil }
                default: return nil
                }
            }
        }
    }

    /// One `inflate` call that, when the stream asks for its preset dictionary (`Z_NEED_DICT`),
    /// gives it `dictionary` and goes on.
    private static func inflateStep(_ stream: inout z_stream, _ flush: Int32, dictionary: [UInt8]) -> Int32 {
        var result = CCatalogZlib.inflate(&stream, flush)
        if result == Z_NEED_DICT {
            result = dictionary.withUnsafeBufferPointer { inflateSetDictionary(&stream, $0.baseAddress, UInt32($0.count)) }
            if result == Z_OK { result = CCatalogZlib.inflate(&stream, flush) }
        }
        return result
    }

    /// Checks that a zlib stream with a preset dictionary inflates to exactly the bytes expected,
    /// with one inflate stream kept for many checks (reset for each) and no output buffer but one of
    /// the expected size. Not thread-safe: one thread at a time.
    final class Check {
        private var stream = z_stream()
        private let ready: Bool
        private var output: [UInt8] = []

        init() {
            ready = ccatalog_inflate_init(&stream) == Z_OK
        }

        deinit {
            if ready { inflateEnd(&stream) }
        }

        /// Whether `deflated` is one complete zlib stream that inflates, with `dictionary`, to
        /// `expected` and nothing more.
        func inflates(_ deflated: [UInt8], to expected: [UInt8], dictionary: [UInt8]) -> Bool {
            guard ready, inflateReset(&stream) == Z_OK else { return false }
            // One byte more than expected: a stream that would go on is caught.
            if output.count < expected.count + 1 { output = [UInt8](repeating: 0, count: expected.count + 1) }
            var input = deflated
            let (status, made) = input.withUnsafeMutableBufferPointer { inBuffer in
                output.withUnsafeMutableBufferPointer { outBuffer -> (Int32, Int) in
                    stream.next_in = inBuffer.baseAddress
                    stream.avail_in = UInt32(inBuffer.count)
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = UInt32(expected.count + 1)
                    defer { stream.next_in = nil; stream.next_out = nil }
                    let result = Zlib.inflateStep(&stream, Z_FINISH, dictionary: dictionary)
                    return (result, expected.count + 1 - Int(stream.avail_out))
                }
            }
            guard status == Z_STREAM_END, stream.avail_in == 0, made == expected.count else { return false }
            guard !expected.isEmpty else { return true }
            return output.withUnsafeBufferPointer { made in
                expected.withUnsafeBufferPointer { memcmp(made.baseAddress!, $0.baseAddress!, $0.count) == 0 }
            }
        }
    }
}
