import CatalogCore
import Foundation

/// `days_left`: whole days from `now` to a date (negative once past), rounded down; null without one.
enum DaysLeft {
    static func days(until date: Date, from now: Date) -> Int {
        Int((date.timeIntervalSince(now) / 86_400).rounded(.down))
    }

    static func json(until date: Date?, from now: Date) -> JSONValue {
        guard let date else { return .null }
        return .int(Int64(days(until: date, from: now)))
    }
}
