/// How many terminal columns text takes: East Asian wide and fullwidth characters (CJK, Hangul,
/// fullwidth forms) and emoji take two, combining marks and joiners none, the rest one — what
/// `wcwidth` reports in a UTF-8 terminal, computed per grapheme cluster so an emoji sequence
/// counts once.
enum DisplayWidth {
    static func of(_ text: String) -> Int { text.reduce(0) { $0 + of($1) } }

    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.contains(where: { $0.properties.isEmojiPresentation })
            || (scalars.count > 1 && scalars.contains { $0.value == 0xFE0F && first.properties.isEmoji }) {
            return 2
        }
        if isWide(first.value) { return 2 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: return 1
        }
    }

    /// Unicode's East Asian Width W and F ranges (UAX #11), the blocks terminals draw double.
    static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
             0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// Where `fit` cuts.
    enum Cut {
        /// Keep the start: free text.
        case end
        /// Keep a third of the start and two thirds of the end: identifiers that differ at the end.
        case middle
        /// Keep the file name whole and as much of the folder's start as fits.
        case path
        /// Keep the first items of a `, `-separated list and say how many there are: `1, 2, … (9)`.
        case list
    }

    /// `text` cut to at most `width` columns, `…` marking the cut.
    static func fit(_ text: String, _ width: Int, cut: Cut = .end) -> String {
        guard of(text) > width else { return text }
        guard width > 1 else { return width == 1 ? "…" : "" }
        if cut == .middle {
            let tail = (width - 1) * 2 / 3
            return prefix(text, width - 1 - tail) + "…" + suffix(text, tail)
        }
        if cut == .list, let shown = firstItems(text, width) { return shown }
        if cut == .path {
            // Keep the file name whole and as much of the folder's start as fits; a file name too
            // long for that keeps its end (where a UUID's tail and the extension are).
            if let slash = text.lastIndex(of: "/") {
                let name = text[slash...]
                let nameWidth = of(String(name))
                if nameWidth + 2 <= width {
                    return prefix(String(text[..<slash]), width - 1 - nameWidth) + "…" + name
                }
            }
            return "…" + suffix(text, width - 1)
        }
        return prefix(text, width - 1) + "…"
    }

    /// The first items of a `, `-separated list that fit beside `, … (count)`; nil when there is one
    /// item or not even `… (count)` fits.
    static func firstItems(_ text: String, _ width: Int) -> String? {
        let items = text.components(separatedBy: ", ")
        guard items.count > 1 else { return nil }
        let count = " (\(items.count))"
        var kept = "…" + count
        for taken in 1..<items.count {
            let next = items[..<taken].joined(separator: ", ") + ", …" + count
            guard of(next) <= width else { break }
            kept = next
        }
        return of(kept) <= width ? kept : nil
    }

    static func prefix(_ text: String, _ width: Int) -> String {
        var out = "", used = 0
        for character in text {
            let next = of(character)
            if used + next > width { break }
            out.append(character)
            used += next
        }
        return out
    }

    static func suffix(_ text: String, _ width: Int) -> String {
        var out: [Character] = [], used = 0
        for character in text.reversed() {
            let next = of(character)
            if used + next > width { break }
            out.append(character)
            used += next
        }
        return String(out.reversed())
    }

    /// `text` followed by spaces up to `width` columns.
    static func pad(_ text: String, _ width: Int) -> String {
        let missing = width - of(text)
        return missing > 0 ? text + String(repeating: " ", count: missing) : text
    }
}
