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
        var scanner = CivilTime.Scanner(text.utf8)
        guard let year = scanner.digits(4), scanner.skip("-"), let month = scanner.digits(2), scanner.skip("-"),
              let day = scanner.digits(2) else { return nil }
        var hour = 0, minute = 0, second = 0, offset = 0
        if !scanner.isAtEnd {
            guard scanner.skip("T") || scanner.skip(" ") else { return nil }
            guard let h = scanner.digits(2), scanner.skip(":"), let m = scanner.digits(2) else { return nil }
            hour = h
            minute = m
            if scanner.skip(":") {
                guard let s = scanner.digits(2) else { return nil }
                second = s
                if scanner.skip(".") { while scanner.nextIsDigit { scanner.advance() } }
            }
            if scanner.skip("Z") {
            } else if scanner.next == UInt8(ascii: "+") || scanner.next == UInt8(ascii: "-") {
                let sign = scanner.skip("-") ? -1 : 1
                _ = scanner.skip("+")
                guard let oh = scanner.digits(2) else { return nil }
                _ = scanner.skip(":")
                guard let om = scanner.digits(2) else { return nil }
                offset = sign * (oh * 3600 + om * 60)
            }
        }
        guard scanner.isAtEnd,
              CivilTime.isValid(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        let seconds = CivilTime.unixSeconds(year: year, month: month, day: day, hour: hour, minute: minute,
                                            second: second)
        return Date(timeIntervalSince1970: TimeInterval(seconds - offset))
    }
}
