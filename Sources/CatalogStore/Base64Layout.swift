/// How the base64 text of one `<data>` element is laid out: what precedes the first line, the
/// length of every line but the last (0: one line), what separates lines and what follows the last.
/// With the bytes, that rebuilds the element's text exactly (``CompactPlist``).
struct Base64Layout: Equatable {
    var prefix: [UInt8]
    var lineLength: Int
    var separator: [UInt8]
    var suffix: [UInt8]

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, char) in alphabet.enumerated() { table[Int(char)] = UInt8(value) }
        return table
    }()

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// The bytes and layout of `text[range]`, or nil unless it is canonical base64 (padded, no stray
    /// bits) in lines of one length separated by one same whitespace run, which this type rebuilds.
    static func decode(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> ([UInt8], Base64Layout)? {
        var start = range.lowerBound, end = range.upperBound
        while start < end && isSpace(text[start]) { start += 1 }
        while end > start && isSpace(text[end - 1]) { end -= 1 }
        guard start < end else { return nil }
        var digits: [UInt8] = []
        digits.reserveCapacity(end - start)
        var lineLength = 0
        var separator: [UInt8]?
        var index = start
        var lines = 0
        var lastLine = 0
        while index < end {
            let lineStart = index
            while index < end && !isSpace(text[index]) { index += 1 }
            let count = index - lineStart
            lines += 1
            lastLine = count
            if lines == 1 { lineLength = count } else if count > lineLength { return nil }
            digits.append(contentsOf: text[lineStart..<index])
            guard index < end else { break }
            let spaceStart = index
            while index < end && isSpace(text[index]) { index += 1 }
            // Every line but the last has the first line's length; every gap is the first gap.
            guard count == lineLength else { return nil }
            let gap = Array(text[spaceStart..<index])
            if let separator { guard gap == separator else { return nil } } else { separator = gap }
        }
        guard lastLine > 0, let bytes = decodeDigits(digits) else { return nil }
        let layout = Base64Layout(prefix: Array(text[range.lowerBound..<start]), lineLength: lines == 1 ? 0 : lineLength,
                                  separator: separator ?? [], suffix: Array(text[end..<range.upperBound]))
        return (bytes, layout)
    }

    /// Canonical padded base64 digits (a multiple of four) to bytes: nil on any other character, on
    /// `=` anywhere but the end, and on bits set past the last byte (which its encoding would not
    /// give back), so that writing the bytes again gives exactly `digits`.
    private static func decodeDigits(_ digits: [UInt8]) -> [UInt8]? {
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
                        let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                        buffer[written] = UInt8(truncatingIfNeeded: group >> 16)
                        buffer[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
                        buffer[written + 2] = UInt8(truncatingIfNeeded: group)
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

    /// Appends the element's text for `bytes` in this layout.
    func write(_ bytes: [UInt8], to out: inout [UInt8]) {
        out.append(contentsOf: prefix)
        let digits = (bytes.count + 2) / 3 * 4
        let lines = lineLength > 0 ? max(1, (digits + lineLength - 1) / lineLength) : 1
        let total = digits + (lines - 1) * separator.count
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: total))
        Self.alphabet.withUnsafeBufferPointer { alphabet in
            bytes.withUnsafeBufferPointer { input in
                separator.withUnsafeBufferPointer { separator in
                    out.withUnsafeMutableBufferPointer { output in
                        var position = start
                        var column = 0
                        let width = lineLength
                        @inline(__always) func emit(_ char: UInt8) {
                            if width > 0 && column == width {
                                for byte in separator {
                                    output[position] = byte
                                    position += 1
                                }
                                column = 0
                            }
                            output[position] = char
                            position += 1
                            column += 1
                        }
                        var index = 0
                        while index < input.count {
                            let left = input.count - index
                            let b0 = UInt32(input[index])
                            let b1 = left > 1 ? UInt32(input[index + 1]) : 0
                            let b2 = left > 2 ? UInt32(input[index + 2]) : 0
                            let group = b0 << 16 | b1 << 8 | b2
                            emit(alphabet[Int(group >> 18 & 63)])
                            emit(alphabet[Int(group >> 12 & 63)])
                            emit(left > 1 ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
                            emit(left > 2 ? alphabet[Int(group & 63)] : UInt8(ascii: "="))
                            index += 3
                        }
                    }
                }
            }
        }
        out.append(contentsOf: suffix)
    }

    /// Appends this layout to a compact plist's template.
    func write(to out: inout [UInt8]) {
        CompactPlist.appendVarint(lineLength, to: &out)
        for part in [prefix, separator, suffix] {
            CompactPlist.appendVarint(part.count, to: &out)
            out.append(contentsOf: part)
        }
    }

    /// Reads a layout written by ``write(to:)``.
    static func read(from reader: inout ByteReader) throws -> Base64Layout {
        let lineLength = try reader.varint()
        let prefix = try reader.bytes(try reader.varint())
        let separator = try reader.bytes(try reader.varint())
        let suffix = try reader.bytes(try reader.varint())
        return Base64Layout(prefix: prefix, lineLength: lineLength, separator: separator, suffix: suffix)
    }
}
