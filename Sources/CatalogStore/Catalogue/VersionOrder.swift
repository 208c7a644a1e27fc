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
        let components = version.trimmingWhitespace().split(separator: ".", omittingEmptySubsequences: false)
        return components.map(componentKey).joined(separator: ".")
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
