import CatalogCore

/// "in 12 days", "today", "expired 3 days ago": how tables show `days_left`.
enum RelativeTime {
    @Sendable static func days(_ value: JSONValue) -> String {
        guard case .int(let days) = value else { return "" }
        switch days {
        case 0: return "today"
        case 1: return "in 1 day"
        case 2...: return "in \(days) days"
        case -1: return "expired 1 day ago"
        default: return "expired \(-days) days ago"
        }
    }

    /// The date part of an ISO-8601 timestamp, for narrow tables.
    @Sendable static func day(_ value: JSONValue) -> String {
        guard case .string(let text) = value else { return "" }
        return String(text.prefix(10))
    }
}
