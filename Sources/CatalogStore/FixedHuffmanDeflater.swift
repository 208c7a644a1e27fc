import CCatalogZlib

/// Deflates small inputs against a preset dictionary into a zlib stream (RFC 1950) holding one
/// final deflate block with the fixed Huffman codes (RFC 1951 §3.2.6): what `CompactPlist` stores
/// for a profile's template, read back by zlib's `inflate` like any other zlib stream.
///
/// Why not zlib's own `deflate`: a template is about 2.3 KB and deflates to about 300 bytes, and
/// for an input that small zlib spends most of its time building the block's dynamic Huffman trees
/// (and then, on these templates, writes the fixed codes anyway, which cost fewer bits): perf on
/// zlib 1.2.13 put 59 % of its time in `trees.c` and 11 % in `deflateSetDictionary`. This encoder
/// writes the fixed codes directly, and starts every input from hash chains of the dictionary
/// built once.
///
/// Matching is greedy over hash chains of three-byte prefixes, at most ``maxChain`` candidates
/// tried and the search stopped at a match of ``niceLength``; a match is
/// at least three bytes long and at most 32,768 bytes back (the window a zlib stream with
/// `CINFO` 7 declares). Not thread-safe: one thread at a time (it reuses its buffers).
final class FixedHuffmanDeflater {
    private static let hashBits = 12
    private static let maxChain = 32
    private static let niceLength = 64
    private static let maxDistance = 32_768
    /// Past this length a match's inner positions are not added to the chains, only its last two:
    /// a template matches the dictionary in long runs, and hashing every byte of them was most of
    /// the encoder's time, for 0.1 % less output.
    private static let maxInsertLength = 8
    private static let minMatch = 3, maxMatch = 258

    private let dictionary: [UInt8]
    private let dictionaryID: UInt32
    /// The chains after the dictionary's positions were inserted: copied at the start of each input.
    private let dictionaryHead: [Int32]
    private let dictionaryPrevious: [Int32]
    /// Per hash, the latest window position with it plus one (0: none); per position, the one
    /// before it with the same hash plus one.
    private var head: [Int32]
    private var previous: [Int32]
    /// The dictionary, then the input.
    private var window: [UInt8]

    init(dictionary: [UInt8]) {
        self.dictionary = dictionary
        dictionaryID = dictionary.withUnsafeBufferPointer { UInt32(adler32(1, $0.baseAddress, UInt32($0.count))) }
        var head = [Int32](repeating: 0, count: 1 << Self.hashBits)
        var previous = [Int32](repeating: 0, count: dictionary.count)
        if dictionary.count >= Self.minMatch {
            for position in 0...(dictionary.count - Self.minMatch) {
                let hash = Self.hash(dictionary[position], dictionary[position + 1], dictionary[position + 2])
                previous[position] = head[hash]
                head[hash] = Int32(position + 1)
            }
        }
        dictionaryHead = head
        dictionaryPrevious = previous
        self.head = head
        self.previous = previous
        window = dictionary
    }

    /// The zlib stream of `input` with this deflater's preset dictionary.
    func deflate(_ input: [UInt8]) -> [UInt8] {
        let start = dictionary.count
        window.removeSubrange(start...)
        window.append(contentsOf: input)
        head.withUnsafeMutableBufferPointer { head in
            dictionaryHead.withUnsafeBufferPointer { head.baseAddress!.update(from: $0.baseAddress!, count: $0.count) }
        }
        previous.removeSubrange(start...)
        previous.append(contentsOf: repeatElement(0, count: input.count))

        var out = BitWriter(capacity: input.count / 4 + 64)
        // CMF: deflate with a 32 KB window; FLG: FDICT, FLEVEL 1 ("fast"), FCHECK making the pair
        // a multiple of 31. Then the dictionary's Adler-32, big-endian.
        let cmf: UInt16 = 0x78, flags: UInt16 = 1 << 6 | 1 << 5
        let check = (31 - (cmf << 8 | flags) % 31) % 31
        out.appendByte(UInt8(cmf))
        out.appendByte(UInt8(flags | check))
        out.appendBigEndian(dictionaryID)
        out.write(0b011, bits: 3)  // BFINAL 1, BTYPE 01: the fixed codes

        window.withUnsafeBufferPointer { window in
            head.withUnsafeMutableBufferPointer { head in
                previous.withUnsafeMutableBufferPointer { previous in
                    encode(window, from: start, head: head, previous: previous, to: &out)
                }
            }
        }
        out.writeSymbol(256)
        out.alignToByte()
        let checksum = input.withUnsafeBufferPointer { UInt32(adler32(1, $0.baseAddress, UInt32($0.count))) }
        out.appendBigEndian(checksum)
        return out.bytes
    }

    private func encode(_ window: UnsafeBufferPointer<UInt8>, from start: Int, head: UnsafeMutableBufferPointer<Int32>,
                        previous: UnsafeMutableBufferPointer<Int32>, to out: inout BitWriter) {
        let end = window.count
        let base = window.baseAddress!
        var position = start
        /// Adds `position` to its chain (only where three bytes remain to hash).
        func insert(_ position: Int) {
            guard position + Self.minMatch <= end else { return }
            let hash = Self.hash(base[position], base[position + 1], base[position + 2])
            previous[position] = head[hash]
            head[hash] = Int32(position + 1)
        }
        while position < end {
            var bestLength = 0, bestDistance = 0
            if position + Self.minMatch <= end {
                let hash = Self.hash(base[position], base[position + 1], base[position + 2])
                var candidate = Int(head[hash]) - 1
                let limit = min(Self.maxMatch, end - position)
                var chain = Self.maxChain
                while candidate >= 0, position - candidate <= Self.maxDistance, chain > 0 {
                    // A longer match must agree at the byte that would make it longer.
                    if base[candidate + bestLength] == base[position + bestLength] || bestLength == 0 {
                        let length = Self.matchLength(base + candidate, base + position, limit: limit)
                        if length > bestLength {
                            bestLength = length
                            bestDistance = position - candidate
                            if length >= Self.niceLength || length == limit { break }
                        }
                    }
                    candidate = Int(previous[candidate]) - 1
                    chain -= 1
                }
                previous[position] = head[hash]
                head[hash] = Int32(position + 1)
            }
            if bestLength >= Self.minMatch {
                out.writeLength(bestLength)
                out.writeDistance(bestDistance)
                if bestLength <= Self.maxInsertLength {
                    for skipped in position + 1 ..< position + bestLength { insert(skipped) }
                } else {
                    insert(position + bestLength - 2)
                    insert(position + bestLength - 1)
                }
                position += bestLength
            } else {
                out.writeSymbol(Int(base[position]))
                position += 1
            }
        }
    }

    /// How many bytes from `a` and `b` agree, at most `limit`; `a` comes before `b` in the window,
    /// so reading `limit` bytes from either stays inside it.
    @inline(__always)
    private static func matchLength(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, limit: Int) -> Int {
        var length = 0
        while length + 8 <= limit {
            let x = UnsafeRawPointer(a + length).loadUnaligned(as: UInt64.self)
            let y = UnsafeRawPointer(b + length).loadUnaligned(as: UInt64.self)
            if x != y { return length + (x ^ y).littleEndian.trailingZeroBitCount / 8 }
            length += 8
        }
        while length < limit && a[length] == b[length] { length += 1 }
        return length
    }

    @inline(__always)
    private static func hash(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int {
        let key = UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
        return Int((key &* 2_654_435_761) >> UInt32(32 - hashBits))
    }
}

/// Bits written least significant first into bytes (RFC 1951 §3.1.1), with the fixed codes.
private struct BitWriter {
    private(set) var bytes: [UInt8]
    private var buffer: UInt64 = 0
    private var count = 0

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func appendByte(_ byte: UInt8) { bytes.append(byte) }

    mutating func appendBigEndian(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// The low `bits` bits of `value`, least significant first (at most 32).
    @inline(__always)
    mutating func write(_ value: UInt32, bits: Int) {
        buffer |= UInt64(value) << UInt64(count)
        count += bits
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
    }

    mutating func alignToByte() {
        if count > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
        buffer = 0
        count = 0
    }

    /// A literal/length symbol (0–287) in its fixed code. Huffman codes go most significant bit
    /// first, hence the reversed tables.
    @inline(__always)
    mutating func writeSymbol(_ symbol: Int) {
        let (code, bits) = FixedCodes.literal[symbol]
        write(UInt32(code), bits: Int(bits))
    }

    /// A match length of 3–258: its symbol (257–285) and extra bits.
    @inline(__always)
    mutating func writeLength(_ length: Int) {
        if length == 258 { writeSymbol(285); return }
        let x = length - 3
        if x < 8 { writeSymbol(257 + x); return }
        let n = Int.bitWidth - 1 - x.leadingZeroBitCount  // 3...7
        let extra = n - 2
        writeSymbol(257 + 4 * (n - 1) + (x >> extra) & 3)
        write(UInt32(x & (1 << extra - 1)), bits: extra)
    }

    /// A match distance of 1–32,768: its code (0–29, five bits) and extra bits.
    @inline(__always)
    mutating func writeDistance(_ distance: Int) {
        let x = distance - 1
        if x < 4 { write(FixedCodes.distance[x], bits: 5); return }
        let n = Int.bitWidth - 1 - x.leadingZeroBitCount  // 2...14
        let extra = n - 1
        write(FixedCodes.distance[2 * n + (x >> extra) & 1], bits: 5)
        write(UInt32(x & (1 << extra - 1)), bits: extra)
    }
}

/// The fixed Huffman codes of RFC 1951 §3.2.6, bit-reversed for a least-significant-first writer.
private enum FixedCodes {
    static let literal: [(UInt16, UInt8)] = (0..<288).map { symbol in
        switch symbol {
        case 0...143: return (reversed(0x30 + symbol, bits: 8), 8)
        case 144...255: return (reversed(0x190 + symbol - 144, bits: 9), 9)
        case 256...279: return (reversed(symbol - 256, bits: 7), 7)
        default: return (reversed(0xC0 + symbol - 280, bits: 8), 8)
        }
    }
    static let distance: [UInt32] = (0..<30).map { UInt32(reversed($0, bits: 5)) }

    private static func reversed(_ code: Int, bits: Int) -> UInt16 {
        var result = 0
        for bit in 0..<bits where code & (1 << bit) != 0 { result |= 1 << (bits - 1 - bit) }
        return UInt16(result)
    }
}
