import Foundation

/// The catalogue's one date format: ISO-8601 in UTC with whole seconds, `2026-11-29T10:00:00Z`.
/// Text in this form sorts chronologically, so `ORDER BY` and range queries work on it directly.
package enum SQLDate {
    private static let style = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!)

    package static func string(from date: Date) -> String {
        date.formatted(style)
    }

    package static func date(from text: String) -> Date? {
        try? style.parse(text)
    }
}
