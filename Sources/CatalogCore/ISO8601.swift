import Foundation

/// ISO-8601 UTC timestamps with seconds and `Z` (`2026-11-29T10:00:00Z`): the one date format of
/// the JSON output and the catalogue. Hand-rolled on `gmtime_r` and `CivilTime` because formatters
/// are slow and not thread-safe on every platform.
package enum ISO8601 {
    package static func format(_ date: Date) -> String {
        // A binary plist date is any Double: NaN, ±inf or beyond time_t must not trap the conversion.
        guard let whole = Int64(exactly: date.timeIntervalSince1970.rounded(.down)) else { return "invalid-date" }
        var seconds = time_t(whole)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "invalid-date" }
        let year = Int(parts.tm_year) + 1900
        guard (0...9999).contains(year) else { return "invalid-date" }
        // Digits written by hand: String(format:) showed in ingest profiles (every row binds dates).
        var bytes = [UInt8](repeating: 0, count: 20)
        func put(_ value: Int, at offset: Int, width: Int) {
            var value = value
            for index in stride(from: offset + width - 1, through: offset, by: -1) {
                bytes[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        put(year, at: 0, width: 4)
        put(Int(parts.tm_mon) + 1, at: 5, width: 2)
        put(Int(parts.tm_mday), at: 8, width: 2)
        put(Int(parts.tm_hour), at: 11, width: 2)
        put(Int(parts.tm_min), at: 14, width: 2)
        put(Int(parts.tm_sec), at: 17, width: 2)
        for (offset, separator) in [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "Z")] as [(Int, Unicode.Scalar)] {
            bytes[offset] = UInt8(ascii: separator)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Parses `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS]` with an optional `Z` or `±HH:MM` offset.
    /// A date without an offset is taken as UTC.
    package static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ width: Int) -> Int? {
            guard index + width <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + width] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += width
            return value
        }
        func expect(_ char: Character) -> Bool {
            guard index < bytes.count, bytes[index] == char.asciiValue else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"),
              let day = number(2) else { return nil }
        var hour = 0, minute = 0, second = 0, offset = 0
        if index < bytes.count {
            guard expect("T") || expect(" ") else { return nil }
            guard let h = number(2), expect(":"), let m = number(2) else { return nil }
            hour = h
            minute = m
            if expect(":") {
                guard let s = number(2) else { return nil }
                second = s
                if expect(".") { while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 } }
            }
            if expect("Z") {
            } else if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D {
                let sign = bytes[index] == 0x2D ? -1 : 1
                index += 1
                guard let oh = number(2) else { return nil }
                _ = expect(":")
                guard let om = number(2) else { return nil }
                offset = sign * (oh * 3600 + om * 60)
            }
        }
        guard index == bytes.count,
              CivilTime.isValid(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        let seconds = CivilTime.unixSeconds(year: year, month: month, day: day, hour: hour, minute: minute,
                                            second: second)
        return Date(timeIntervalSince1970: TimeInterval(seconds - offset))
    }
}
