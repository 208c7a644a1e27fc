import CatalogCore
import Foundation

/// The catalogue's one date format: ISO-8601 in UTC with whole seconds, `2026-11-29T10:00:00Z`.
/// Text in this form sorts chronologically, so `ORDER BY` and range queries work on it directly.
/// The same text as the JSON output: both go through `ISO8601`.
package enum SQLDate {
    package static func string(from date: Date) -> String {
        ISO8601.format(date)
    }

    package static func date(from text: String) -> Date? {
        ISO8601.parse(text)
    }
}
