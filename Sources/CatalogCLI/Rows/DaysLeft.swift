import CatalogCore
import Foundation

/// The day rule (README, "Days"): dates are counted in whole UTC calendar days from `--as-of`.
/// `days_left` is the number of UTC days from `now`'s day to the date's day (0: the same day, so
/// "today" whether earlier or later than `now`; negative: an earlier day, expired); a window of N
/// days holds what has `days_left` 0 through N.
enum DaysLeft {
    static func days(until date: Date, from now: Date) -> Int {
        day(date) - day(now)
    }

    static func json(until date: Date?, from now: Date) -> JSONValue {
        guard let date else { return .null }
        return .int(Int64(days(until: date, from: now)))
    }

    /// The first second of `now`'s UTC day: what expires before it is expired.
    static func start(_ now: Date) -> Date {
        Date(timeIntervalSince1970: Double(day(now)) * 86_400)
    }

    /// The last second of the UTC day `days` days after `now`'s: the end of a window of `days` days,
    /// inclusive (the catalogue's dates are whole seconds, so nothing falls after it on that day).
    static func end(_ days: Int, after now: Date) -> Date {
        Date(timeIntervalSince1970: Double(day(now) + days + 1) * 86_400 - 1)
    }

    /// Days since 1970-01-01 UTC, rounded down (so before 1970 too).
    private static func day(_ date: Date) -> Int {
        Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }
}
