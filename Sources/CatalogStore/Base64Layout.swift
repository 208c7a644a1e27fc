import CatalogCore
import Foundation

/// How the base64 text of one `<data>` element is laid out: what precedes the first line, the
/// length of every line but the last (0: one line), what separates lines and what follows the last.
/// With the bytes, that rebuilds the element's text exactly (``CompactPlist``).
struct Base64Layout: Equatable {
    // Slices of the plist's text or of the template they were read from: a layout per `<data>`
    // element made three small arrays when measured and three more when rebuilt.
    var prefix: ArraySlice<UInt8>
    var lineLength: Int
    var separator: ArraySlice<UInt8>
    var suffix: ArraySlice<UInt8>

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, char) in alphabet.enumerated() { table[Int(char)] = UInt8(value) }
        return table
    }()

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// Where the base64 digits of one `<data>` element lie in the plist's text, and their layout.
    struct Digits {
        var layout: Base64Layout
        /// The first digit's position in the text.
        var start: Int
        /// How many digits there are, and how many bytes they stand for when canonical.
        var count: Int
        var byteCount: Int
        /// The length of every line but the last (of the only line when there is one).
        var lineLength: Int

        /// The position in the text of digit `index`.
        func position(_ index: Int) -> Int {
            start + index / lineLength * (lineLength + layout.separator.count) + index % lineLength
        }

        /// Whether `bytes` could be what the digits encode: as many bytes, and the same at two
        /// groups of three (one in the middle, one next to last: a certificate's signature). A
        /// guess, for choosing among bytes already decoded elsewhere; the caller proves it by
        /// rebuilding the text from `bytes` and comparing.
        func mayEncode(_ bytes: [UInt8], in text: UnsafeBufferPointer<UInt8>) -> Bool {
            guard bytes.count == byteCount, count >= 8 else { return false }
            for group in [count / 8, count / 4 - 2] {
                var value: UInt32 = 0
                for digit in 0..<4 {
                    let digitValue = Base64Layout.values[Int(text[position(group * 4 + digit)])]
                    guard digitValue < 64 else { return false }
                    value = value << 6 | UInt32(digitValue)
                }
                let at = group * 3
                guard bytes[at] == UInt8(truncatingIfNeeded: value >> 16), bytes[at + 1] == UInt8(truncatingIfNeeded: value >> 8),
                      bytes[at + 2] == UInt8(truncatingIfNeeded: value) else { return false }
            }
            return true
        }

        /// The bytes, or nil unless the digits are canonical base64 (padded, no stray bits).
        func decode(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
            guard let base = text.baseAddress else { return nil }
            var digits: [UInt8] = []
            digits.reserveCapacity(count)
            var index = 0
            while index < count {
                let line = min(lineLength, count - index)
                digits.append(contentsOf: UnsafeBufferPointer(start: base + position(index), count: line))
                index += line
            }
            return Base64Layout.decodeDigits(digits)
        }
    }

    /// The layout of `text[range]` and where its digits are, or nil unless it is lines of one length
    /// separated by one same whitespace run (which this type rebuilds) holding a multiple of four
    /// non-space characters. Whether those are canonical base64 is for ``Digits/decode(_:)`` to say.
    /// `plist` is the array `text` points into, of which the layout keeps slices.
    static func measure(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, of plist: [UInt8]) -> Digits? {
        var start = range.lowerBound, end = range.upperBound
        while start < end && isSpace(text[start]) { start += 1 }
        while end > start && isSpace(text[end - 1]) { end -= 1 }
        guard start < end else { return nil }
        // The first line and the gap after it are found byte by byte; every later line must then
        // be as long and every later gap the same bytes, so those are checked where they must be
        // rather than searched for. A space inside a line is not a base64 digit, so decoding
        // refuses it.
        guard let base = text.baseAddress else { return nil }
        var index = start
        while index < end && !isSpace(text[index]) { index += 1 }
        let lineLength = index - start
        var lines = 1
        var count = lineLength
        var separator: ArraySlice<UInt8> = []
        if index < end {
            let gapStart = index
            while index < end && isSpace(text[index]) { index += 1 }
            separator = plist[gapStart..<index]
            while true {
                let left = end - index
                if left <= lineLength {
                    // The last line: at most as long as the first, with no gap after it.
                    count += left
                    lines += 1
                    break
                }
                // A line of the first line's length, then exactly the first gap (a longer gap
                // leaves a space at the start of the next line).
                let gap = index + lineLength
                guard gap + separator.count < end,
                      memcmp(base + gap, base + separator.startIndex, separator.count) == 0 else { return nil }
                count += lineLength
                lines += 1
                index = gap + separator.count
            }
        }
        guard count % 4 == 0 else { return nil }
        let layout = Base64Layout(prefix: plist[range.lowerBound..<start], lineLength: lines == 1 ? 0 : lineLength,
                                  separator: separator, suffix: plist[end..<range.upperBound])
        var digits = Digits(layout: layout, start: start, count: count, byteCount: 0, lineLength: lineLength)
        let pad = UInt8(ascii: "=")
        let padding = text[digits.position(count - 1)] != pad ? 0 : text[digits.position(count - 2)] == pad ? 2 : 1
        digits.byteCount = count / 4 * 3 - padding
        return digits
    }

    /// Canonical padded base64 digits (a multiple of four) to bytes: nil on any other character, on
    /// `=` anywhere but the end, and on bits set past the last byte (which its encoding would not
    /// give back), so that writing the bytes again gives exactly `digits`.
    static func decodeDigits(_ digits: [UInt8]) -> [UInt8]? {
        guard !digits.isEmpty, digits.count % 4 == 0 else { return nil }
        let pad = UInt8(ascii: "=")
        var padding = 0
        if digits[digits.count - 1] == pad { padding = digits[digits.count - 2] == pad ? 2 : 1 }
        let count = digits.count / 4 * 3 - padding
        return values.withUnsafeBufferPointer { table -> [UInt8]? in
            digits.withUnsafeBufferPointer { input -> [UInt8]? in
                var failed = false
                let out = [UInt8](unsafeUninitializedCapacity: count + 2) { buffer, initialized in
                    var written = 0
                    var index = 0
                    let full = input.count - (padding > 0 ? 4 : 0)
                    while index < full {
                        let a = table[Int(input[index])], b = table[Int(input[index + 1])]
                        let c = table[Int(input[index + 2])], d = table[Int(input[index + 3])]
                        if (a | b | c | d) & 0xC0 != 0 { failed = true; break }
                        Base64Group.write(a, b, c, d, to: buffer, at: written)
                        written += 3
                        index += 4
                    }
                    if !failed && padding > 0 {
                        let a = table[Int(input[index])], b = table[Int(input[index + 1])]
                        let c = padding == 2 ? 0 : table[Int(input[index + 2])]
                        // The bits past the last byte must be zero for the text to be canonical.
                        if (a | b | c) & 0xC0 != 0 || (padding == 2 ? b & 0x0F : c & 0x03) != 0 {
                            failed = true
                        } else {
                            let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
                            buffer[written] = UInt8(truncatingIfNeeded: group >> 16)
                            written += 1
                            if padding == 1 {
                                buffer[written] = UInt8(truncatingIfNeeded: group >> 8)
                                written += 1
                            }
                        }
                    }
                    initialized = written
                }
                return failed ? nil : out
            }
        }
    }

    /// How many bytes ``write(_:to:)`` appends for `byteCount` bytes.
    func textCount(for byteCount: Int) -> Int {
        let digits = (byteCount + 2) / 3 * 4
        let lines = lineLength > 0 ? max(1, (digits + lineLength - 1) / lineLength) : 1
        return prefix.count + digits + (lines - 1) * separator.count + suffix.count
    }

    /// Appends the element's text for `bytes` in this layout: the digits are encoded in one pass
    /// and then copied a line at a time (a check per character for the line's end cost more than
    /// the encoding).
    func write(_ bytes: ArraySlice<UInt8>, to out: inout [UInt8]) {
        out.append(contentsOf: prefix)
        let digits = (bytes.count + 2) / 3 * 4
        let width = lineLength > 0 && lineLength < digits ? lineLength : digits
        let lines = digits == 0 ? 1 : (digits + width - 1) / width
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: digits + (lines - 1) * separator.count))
        Self.alphabet.withUnsafeBufferPointer { alphabet in
            bytes.withUnsafeBufferPointer { input in
                separator.withUnsafeBufferPointer { separator in
                    out.withUnsafeMutableBufferPointer { output in
                        // The digits go to the end of the space, the lines then move to the front.
                        let text = UnsafeMutableBufferPointer(rebasing: output[(output.count - digits)...])
                        Self.encode(input, into: text, alphabet: alphabet)
                        guard lines > 1, let base = output.baseAddress, let source = text.baseAddress else { return }
                        var position = start
                        for line in 0..<lines {
                            let from = line * width, count = min(width, digits - from)
                            if line > 0 {
                                for byte in separator {
                                    output[position] = byte
                                    position += 1
                                }
                            }
                            UnsafeMutableRawPointer(base + position)
                                .copyMemory(from: source + from, byteCount: count)
                            position += count
                        }
                    }
                }
            }
        }
        out.append(contentsOf: suffix)
    }

    /// Padded base64 of `input`, exactly `(input.count + 2) / 3 * 4` digits, into `output`.
    private static func encode(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>,
                               alphabet: UnsafeBufferPointer<UInt8>) {
        var index = 0, position = 0
        if let out = UnsafeMutableRawPointer(output.baseAddress) {
            digitPairs.withUnsafeBufferPointer { pairs in
                // Three bytes are four digits, two 12-bit halves looked up as pairs of digits and
                // stored at once: a lookup and a store per digit cost twice as much.
                while index + 3 <= input.count {
                    let group = Int(input[index]) << 16 | Int(input[index + 1]) << 8 | Int(input[index + 2])
                    let digits = UInt32(pairs[group >> 12]) | UInt32(pairs[group & 0xFFF]) << 16
                    out.storeBytes(of: digits.littleEndian, toByteOffset: position, as: UInt32.self)
                    index += 3
                    position += 4
                }
            }
        }
        let left = input.count - index
        guard left > 0 else { return }
        let group = UInt32(input[index]) << 16 | (left > 1 ? UInt32(input[index + 1]) << 8 : 0)
        output[position] = alphabet[Int(group >> 18 & 63)]
        output[position + 1] = alphabet[Int(group >> 12 & 63)]
        output[position + 2] = left > 1 ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "=")
        output[position + 3] = UInt8(ascii: "=")
    }

    /// The two digits of every 12-bit value, the first in the low byte.
    private static let digitPairs: [UInt16] = (0..<4096).map {
        UInt16(alphabet[$0 >> 6]) | UInt16(alphabet[$0 & 63]) << 8
    }

    /// Appends this layout to a compact plist's template.
    func write(to out: inout [UInt8]) {
        CompactPlist.appendVarint(lineLength, to: &out)
        func append(_ part: ArraySlice<UInt8>) {
            CompactPlist.appendVarint(part.count, to: &out)
            out.append(contentsOf: part)
        }
        append(prefix)
        append(separator)
        append(suffix)
    }

    /// Reads a layout written by ``write(to:)``.
    static func read(from reader: inout ByteReader) throws -> Base64Layout {
        let lineLength = try reader.varint()
        let prefix = try reader.slice(try reader.varint())
        let separator = try reader.slice(try reader.varint())
        let suffix = try reader.slice(try reader.varint())
        return Base64Layout(prefix: prefix, lineLength: lineLength, separator: separator, suffix: suffix)
    }
}
