/// The two spellings of a device identifier (UDID) that ``CompactPlist`` stores as bytes: 40
/// lower-case hex digits, and the newer `00008030-001A2B3C4D5E6F70` in upper case.
enum HexString: UInt8, CaseIterable {
    case lower40 = 0
    case upper8dash16 = 1

    var textCount: Int { self == .lower40 ? 40 : 25 }
    var byteCount: Int { self == .lower40 ? 20 : 12 }

    private static let lowerDigits = Array("0123456789abcdef".utf8)
    private static let upperDigits = Array("0123456789ABCDEF".utf8)

    /// The bytes of the identifier at `text[start...]`, or nil unless it is spelled exactly this way.
    func bytes(of text: UnsafeBufferPointer<UInt8>, at start: Int) -> [UInt8]? {
        guard start + textCount <= text.count else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(byteCount)
        var index = start
        var high: UInt8?
        while index < start + textCount {
            let char = text[index]
            if self == .upper8dash16 && index == start + 8 {
                guard char == UInt8(ascii: "-") else { return nil }
                index += 1
                continue
            }
            guard let value = digit(char) else { return nil }
            if let first = high {
                out.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
            index += 1
        }
        return out
    }

    private func digit(_ char: UInt8) -> UInt8? {
        switch char {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return char - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f") where self == .lower40: return char - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F") where self == .upper8dash16: return char - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Appends the identifier's text for `bytes` (``byteCount`` of them).
    func write(_ bytes: ArraySlice<UInt8>, to out: inout [UInt8]) {
        let digits = self == .lower40 ? Self.lowerDigits : Self.upperDigits
        for (index, byte) in bytes.enumerated() {
            if self == .upper8dash16 && index == 4 { out.append(UInt8(ascii: "-")) }
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
    }
}
