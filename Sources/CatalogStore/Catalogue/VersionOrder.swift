/// Sort keys that make plain `ORDER BY` order version strings the way people read them:
/// "1.9" < "1.10", "2025.0101.9" < "2025.0324.1016", "1.0" < "1.0.1".
///
/// The key is stored in a TEXT column beside the version (`builds.version_sort`, `build_sort`), so
/// SQLite's default BINARY collation sorts it and an index can serve the `ORDER BY`.
///
/// How the key is built: the version is trimmed and split at `.`; within each component every run of
/// digits becomes its value zero-padded to 20 digits (enough for any UInt64; leading zeros dropped,
/// so "0324" and "324" are equal), and every other run is kept as text. Components are joined with
/// `.`, which sorts below digits and letters, so a version that is a prefix of another sorts first.
/// Consequences: numbers sort before text in the same position ("1.2" < "1.a"), and a text suffix
/// sorts after the bare number ("1.0" < "1.0b2" < "1.1").
package enum VersionOrder {
    package static let numberWidth = 20

    package static func sortKey(_ version: String) -> String {
        var version = version
        if let key = version.withUTF8(asciiKey) { return key }
        return characterKey(version)
    }

    /// The key built character by character: for any version, and the definition ``asciiKey(_:)``
    /// must match.
    static func characterKey(_ version: String) -> String {
        let components = version.trimmingWhitespace().split(separator: ".", omittingEmptySubsequences: false)
        return components.map(componentKey).joined(separator: ".")
    }

    /// The key of an all-ASCII version (nearly every one), from its bytes, since the writer builds
    /// two per build and going by Characters is slow. Nil for any other version.
    /// Kept for speed: cold ingest (bench.py).
    private static func asciiKey(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
        let dot = UInt8(ascii: "."), zero = UInt8(ascii: "0")
        var start = 0, end = bytes.count
        while start < end && isSpace(bytes[start]) { start += 1 }
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        var key: [UInt8] = []
        key.reserveCapacity(4 * numberWidth)
        var index = start
        while index < end {
            let byte = bytes[index]
            if byte == dot {
                key.append(dot)
                index += 1
            } else if isDigit(byte) {
                var run = index
                while run < end && isDigit(bytes[run]) { run += 1 }
                var significant = index
                while significant < run && bytes[significant] == zero { significant += 1 }
                key.append(contentsOf: repeatElement(zero, count: max(0, numberWidth - (run - significant))))
                key.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[significant..<run]))
                index = run
            } else {
                key.append(byte)
                index += 1
            }
        }
        return String(decoding: key, as: UTF8.self)
    }

    private static func componentKey(_ component: Substring) -> String {
        var key = ""
        var digits = ""
        var text = ""
        func flushDigits() {
            guard !digits.isEmpty else { return }
            let significant = digits.drop { $0 == "0" }
            key += String(repeating: "0", count: max(0, numberWidth - significant.count)) + significant
            digits = ""
        }
        func flushText() {
            key += text
            text = ""
        }
        for character in component {
            if character.isASCII && character.isNumber {
                flushText()
                digits.append(character)
            } else {
                flushDigits()
                text.append(character)
            }
        }
        flushDigits()
        flushText()
        return key
    }
}

private extension String {
    func trimmingWhitespace() -> Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
