import Foundation

/// Reads XML and binary (`bplist00`) property lists into `PlistValue`s with our own parsers.
///
/// Why not Foundation: on Linux its XML parser overflows the stack on deeply nested arrays, hides
/// duplicate keys and is slow, and the ingester parses tens of thousands of untrusted plists. Both
/// parsers here work on bytes, bound nesting by `maximumDepth`, check every offset and count against
/// the input size before using it, and report failures as `DecodeError(.malformedPlist, …, offset:)`.
///
/// Decisions shared by both formats:
/// - Strings must be valid Unicode (UTF-8 in XML, ASCII / UTF-16BE in binary). Invalid bytes are an
///   error naming their offset, not repaired: silent U+FFFD repair would hide a corrupted file.
/// - A dictionary key that appears twice keeps its first position and the later value wins
///   (`PlistDictionary`'s subscript semantics), as CoreFoundation does.
package enum PropertyListReader {
    /// The deepest nesting of arrays and dictionaries accepted (the root container is depth 1).
    package static let maximumDepth: Int = 128

    /// Detects binary (`bplist00`) vs XML (optionally after a UTF-8 BOM and whitespace) and parses.
    /// Throws `DecodeError(.malformedPlist, reason, offset:)` with the byte offset where known.
    package static func parse(_ bytes: [UInt8]) throws -> (value: PlistValue, format: PlistFormat) {
        try bytes.withUnsafeBufferPointer { buffer in
            try parse(buffer)
        }
    }

    /// Parses a plist whose root must be a dictionary (a profile, an Info.plist, an archive's
    /// Info.plist); `what` names it in the error (`"Info.plist"` → "Info.plist root is array, …").
    package static func parseDictionary(_ bytes: [UInt8], _ what: String) throws -> (dictionary: PlistDictionary, format: PlistFormat) {
        let (root, format) = try parse(bytes)
        guard let dictionary = root.dictionary else {
            throw DecodeError(.invalidValue, "\(what) root is \(root.typeName), expected dictionary")
        }
        return (dictionary, format)
    }

    /// The same over a buffer the caller owns (a slice of a larger file, a memory-mapped file).
    package static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws -> (value: PlistValue, format: PlistFormat) {
        if buffer.isEmpty {
            throw DecodeError(.malformedPlist, "empty property list", offset: 0)
        }
        if buffer.count >= 6, buffer[0] == 0x62, buffer[1] == 0x70, buffer[2] == 0x6C, buffer[3] == 0x69,
           buffer[4] == 0x73, buffer[5] == 0x74 {  // "bplist"
            if buffer.count >= 8, buffer[6] == 0x30, buffer[7] == 0x30 {  // "00"
                return (try BinaryPropertyListParser.parse(buffer), .binary)
            }
            throw DecodeError(.malformedPlist, "unsupported binary property list version", offset: 6)
        }
        var start = 0
        if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { start = 3 }
        if buffer.count >= 2, (buffer[0] == 0xFE && buffer[1] == 0xFF) || (buffer[0] == 0xFF && buffer[1] == 0xFE) {
            throw DecodeError(.malformedPlist, "UTF-16 XML property lists are not supported", offset: 0)
        }
        var index = start
        while index < buffer.count, XMLPropertyListParser.isWhitespace(buffer[index]) { index += 1 }
        guard index < buffer.count, buffer[index] == UInt8(ascii: "<") else {
            throw DecodeError(.malformedPlist, "not a property list (neither bplist00 nor XML)", offset: index)
        }
        return (try XMLPropertyListParser.parse(buffer, start: start), .xml)
    }
}

/// Helpers shared by the XML and binary parsers.
enum PlistSupport {
    /// The index of the first byte that is not part of a well-formed UTF-8 sequence (no overlongs,
    /// no surrogates, nothing above U+10FFFF), or nil when all of `bytes` is valid UTF-8.
    static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = bytes.count
        var index = 0
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            var trailing: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: trailing = 1
            case 0xE0: trailing = 2; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: trailing = 2
            case 0xED: trailing = 2; high = 0x9F
            case 0xF0: trailing = 3; low = 0x90
            case 0xF1...0xF3: trailing = 3
            case 0xF4: trailing = 3; high = 0x8F
            default: return index
            }
            guard count - index > trailing else { return index }
            let second = bytes[index + 1]
            guard second >= low, second <= high else { return index }
            var next = index + 2
            trailing -= 1
            while trailing > 0 {
                guard bytes[next] & 0xC0 == 0x80 else { return index }
                next += 1
                trailing -= 1
            }
            index = next
        }
        return nil
    }
}
