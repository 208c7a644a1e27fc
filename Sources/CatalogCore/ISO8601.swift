import Foundation

/// ISO-8601 UTC timestamps with seconds and `Z` (`2026-11-29T10:00:00Z`): the one date format of
/// the JSON output and the catalogue. Hand-rolled on `CivilTime` because formatters are slow and
/// not thread-safe on every platform, and `gmtime_r` takes the C library's time-zone lock on
/// every call (three dates a row of a listing).
package enum ISO8601 {
    package static func format(_ date: Date) -> String {
        String(unsafeUninitializedCapacity: 20) { write(date, into: $0) }
    }

    /// `format(date)` in double quotes, appended to `out` without making the String (a listing's
    /// JSON has three dates a row; the text needs no escape).
    package static func appendQuoted(_ date: Date, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 22) { buffer in
            buffer[0] = UInt8(ascii: "\"")
            let count = write(date, into: UnsafeMutableBufferPointer(rebasing: buffer[1...]))
            buffer[count + 1] = UInt8(ascii: "\"")
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<(count + 2)]))
        }
    }

    /// Writes ``format(_:)``'s text into `bytes` (room for 20) and returns its length.
    private static func write(_ date: Date, into bytes: UnsafeMutableBufferPointer<UInt8>) -> Int {
        // A binary plist date is any Double: NaN, ±inf or beyond the years 0–9999 is no date.
        guard let whole = Int64(exactly: date.timeIntervalSince1970.rounded(.down)),
              (-62_167_219_200...253_402_300_799).contains(whole) else {
            let invalid: StaticString = "invalid-date"
            invalid.withUTF8Buffer { text in
                for index in 0..<text.count { bytes[index] = text[index] }
            }
            return invalid.utf8CodeUnitCount
        }
        let seconds = Int(whole)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let (year, month, day) = CivilTime.civilDate(daysSince1970: days)
        let second = seconds - days * 86_400
        // Digits written by hand: String(format:) showed in ingest profiles (every row binds dates).
        func put(_ value: Int, at offset: Int, width: Int) {
            var value = value
            for index in stride(from: offset + width - 1, through: offset, by: -1) {
                bytes[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        put(year, at: 0, width: 4)
        bytes[4] = UInt8(ascii: "-")
        put(month, at: 5, width: 2)
        bytes[7] = UInt8(ascii: "-")
        put(day, at: 8, width: 2)
        bytes[10] = UInt8(ascii: "T")
        put(second / 3_600, at: 11, width: 2)
        bytes[13] = UInt8(ascii: ":")
        put(second / 60 % 60, at: 14, width: 2)
        bytes[16] = UInt8(ascii: ":")
        put(second % 60, at: 17, width: 2)
        bytes[19] = UInt8(ascii: "Z")
        return 20
    }

    /// The catalogue's own form, `YYYY-MM-DDTHH:MM:SSZ` (exactly 20 bytes), read at fixed offsets:
    /// a listing reads three stored dates a row, and the general scanner took 1,350 instructions
    /// a date. Nil for anything else, which the general parser then reads (or rejects).
    private static func parseStored(_ utf8: UnsafeBufferPointer<UInt8>) -> Date? {
        guard utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-"), utf8[10] == UInt8(ascii: "T"),
              utf8[13] == UInt8(ascii: ":"), utf8[16] == UInt8(ascii: ":"), utf8[19] == UInt8(ascii: "Z") else { return nil }
        var invalid = false
        func number(_ offset: Int, _ width: Int) -> Int {
            var value = 0
            for index in offset..<offset + width {
                let digit = utf8[index] &- 0x30
                if digit > 9 { invalid = true }
                value = value * 10 + Int(digit)
            }
            return value
        }
        let year = number(0, 4), month = number(5, 2), day = number(8, 2)
        let hour = number(11, 2), minute = number(14, 2), second = number(17, 2)
        guard !invalid,
              CivilTime.isValid(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        let seconds = CivilTime.unixSeconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Parses `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS]` with an optional `Z` or `±HH:MM` offset.
    /// A date without an offset is taken as UTC.
    package static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8(parse)
    }

    private static func parse(_ utf8: UnsafeBufferPointer<UInt8>) -> Date? {
        if utf8.count == 20, let date = parseStored(utf8) { return date }
        var scanner = CivilTime.Scanner(utf8)
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
