import CatalogCore
import Foundation

/// `days_left`: whole days from `now` to a date (negative once past), rounded down; null without one.
enum DaysLeft {
    static func json(until date: Date?, from now: Date) -> JSONValue {
        guard let date else { return .null }
        return .int(Int64((date.timeIntervalSince(now) / 86_400).rounded(.down)))
    }
}
