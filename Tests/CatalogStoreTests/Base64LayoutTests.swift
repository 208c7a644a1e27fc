import Foundation
import Testing
@testable import CatalogStore

/// ``Base64Layout/measure(_:_:of:)`` checks later lines and gaps where they must be rather than
/// splitting the text at every whitespace run, and ``Base64Layout/Digits/decode(_:)`` takes the
/// canonical digits. Together they must accept exactly what that split accepts.
struct Base64LayoutTests {
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// The definition: trim the whitespace around the text, split the rest into lines at whitespace
    /// runs; every line but the last has the first one's length, the last is no longer, every gap is
    /// the first gap, and the digits are canonical padded base64.
    private static func reference(_ text: [UInt8]) -> ([UInt8], Base64Layout)? {
        var start = 0, end = text.count
        while start < end && isSpace(text[start]) { start += 1 }
        while end > start && isSpace(text[end - 1]) { end -= 1 }
        guard start < end else { return nil }
        var lines: [[UInt8]] = [], gaps: [[UInt8]] = []
        var index = start
        while index < end {
            let lineStart = index
            while index < end && !isSpace(text[index]) { index += 1 }
            lines.append(Array(text[lineStart..<index]))
            let gapStart = index
            while index < end && isSpace(text[index]) { index += 1 }
            if index > gapStart { gaps.append(Array(text[gapStart..<index])) }
        }
        let width = lines[0].count
        guard lines.dropLast().allSatisfy({ $0.count == width }), lines[lines.count - 1].count <= width,
              gaps.allSatisfy({ $0 == gaps[0] }) else { return nil }
        let digits = String(decoding: lines.joined(), as: UTF8.self)
        guard let data = Data(base64Encoded: digits), data.base64EncodedString() == digits else { return nil }
        return (Array(data), Base64Layout(prefix: text[..<start], lineLength: lines.count == 1 ? 0 : width,
                                          separator: (gaps.first ?? [])[...], suffix: text[end...]))
    }

    @Test func acceptsExactlyWhatSplittingAtWhitespaceAccepts() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let gaps = ["\n", "\n\t", "\n\t\t", "\r\n", " ", "\t", "\n  "].map { Array($0.utf8) }
        let spaces = Array(" \t\n\r".utf8)
        var accepted = 0
        for _ in 0..<6000 {
            let bytes = (0..<next(120)).map { _ in UInt8(next(256)) }
            let digits = Array(Data(bytes).base64EncodedString().utf8)
            let width = 1 + next(80), gap = gaps[next(gaps.count)]
            var text = Array(gaps[next(gaps.count)].prefix(next(3)))
            for (index, digit) in digits.enumerated() {
                if index > 0 && index % width == 0 { text += gap }
                text.append(digit)
            }
            text += Array(gaps[next(gaps.count)].prefix(next(3)))
            // Half the texts get one change that may or may not break the layout.
            if next(2) == 0 && !text.isEmpty {
                let at = next(text.count)
                switch next(5) {
                case 0: text.insert(spaces[next(spaces.count)], at: at)
                case 1: text.remove(at: at)
                case 2: text[at] = spaces[next(spaces.count)]
                case 3: text.insert(contentsOf: gaps[next(gaps.count)], at: at)
                default: text.insert(UInt8(ascii: "="), at: at)
                }
            }
            let expected = Self.reference(text)
            let plist = text
            let actual = plist.withUnsafeBufferPointer { text in
                Base64Layout.measure(text, 0..<text.count, of: plist).flatMap { digits in digits.decode(text).map { ($0, digits.layout) } }
            }
            #expect(actual?.0 == expected?.0 && actual?.1 == expected?.1,
                    "\(String(decoding: text, as: UTF8.self).debugDescription)")
            if expected != nil { accepted += 1 }
        }
        // Both kinds of text were tried.
        #expect(accepted > 2000 && accepted < 5800)
    }
}
