/// Proleptic Gregorian calendar arithmetic in UTC, shared by every date parser of the decoder
/// (plist `<date>`, X.509 UTCTime/GeneralizedTime, ISO-8601 command-line dates). Pure integer
/// math: no time zone database, no formatter, the same on every platform.
package enum CivilTime {
    /// Seconds since 1970-01-01T00:00:00Z of a civil date-time in UTC.
    package static func unixSeconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int {
        daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
    }

    /// Days from 1970-01-01 to a civil date (Howard Hinnant's days-from-civil).
    package static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date `days` days after 1970-01-01 (Howard Hinnant's civil-from-days, the inverse
    /// of ``daysSince1970(year:month:day:)``).
    package static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    package static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Whether the fields name a real instant (a leap second's :60 allowed).
    package static func isValid(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Bool {
        (1...12).contains(month) && day >= 1 && day <= daysInMonth(year: year, month: month)
            && (0..<24).contains(hour) && (0..<60).contains(minute) && (0...60).contains(second)
    }
}

extension CivilTime {
    /// Reads the fixed-width fields that date formats are made of (`2026`, `-`, `11`, …), left to
    /// right: the one digit reader of the plist, X.509 and ISO-8601 date parsers. It reads the bytes
    /// where they are (a String's UTF-8, a slice of a plist, a certificate's time text) rather than
    /// copying them into an array first: a listing parses three dates a row.
    package struct Scanner<Bytes: Collection<UInt8>> {
        private let bytes: Bytes
        private var position: Bytes.Index

        package init(_ bytes: Bytes) {
            self.bytes = bytes
            position = bytes.startIndex
        }

        package var isAtEnd: Bool { position == bytes.endIndex }
        /// The next byte, not consumed.
        package var next: UInt8? { isAtEnd ? nil : bytes[position] }
        package var nextIsDigit: Bool { next.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }

        /// `count` decimal digits as a number; nil, consuming nothing, when fewer are there.
        package mutating func digits(_ count: Int) -> Int? {
            var index = position
            var value = 0
            for _ in 0..<count {
                guard index != bytes.endIndex else { return nil }
                let byte = bytes[index]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
                bytes.formIndex(after: &index)
            }
            position = index
            return value
        }

        /// Consumes `character` when it is next.
        package mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard next == UInt8(ascii: character) else { return false }
            bytes.formIndex(after: &position)
            return true
        }

        /// Consumes one byte, whatever it is.
        package mutating func advance() {
            if !isAtEnd { bytes.formIndex(after: &position) }
        }
    }
}
