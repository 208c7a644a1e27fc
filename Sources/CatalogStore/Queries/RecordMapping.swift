import CatalogCore
import Foundation

/// Converts rows to the JSON records the CLI prints, with the column types the schema implies.
enum RecordMapping {
    /// Columns stored as INTEGER 0/1 that mean booleans.
    static let booleanColumns: Set<String> = [
        "xcode_managed", "ppq_check", "get_task_allow", "provisions_all_devices", "unresolved", "installed",
    ]
    /// Columns stored as JSON text.
    static let jsonColumns: Set<String> = ["platforms", "team_identifiers", "app_id_prefixes", "roots",
                                          "der_profile_differences"]

    /// Column names that differ from the JSON names `catalog decode` uses for the same fact.
    static let renamed: [String: String] = ["app_id_prefixes": "application_identifier_prefixes"]

    static func json(_ row: Row, skipping skipped: Set<String> = []) -> [(String, JSONValue)] {
        var pairs: [(String, JSONValue)] = []
        pairs.reserveCapacity(row.columns.count)
        for (index, column) in row.columns.enumerated() where !skipped.contains(column) {
            pairs.append((renamed[column] ?? column, value(row.values[index], column: column)))
        }
        return pairs
    }

    /// Adds `os`, the one platform in the iOS/macOS/tvOS/watchOS/visionOS vocabulary, after the
    /// platform as written: a profile's `platforms` array or a build's `platform`.
    static func withOS(_ pairs: [(String, JSONValue)]) -> [(String, JSONValue)] {
        var result = pairs
        if let index = pairs.firstIndex(where: { $0.0 == "platforms" }) {
            var written: [String] = []
            if case .array(let items) = pairs[index].1 {
                for case .string(let value) in items { written.append(value) }
            }
            result.insert(("os", .string(PlatformName(profilePlatforms: written).rawValue)), at: index + 1)
        } else if let index = pairs.firstIndex(where: { $0.0 == "platform" }) {
            var os: String?
            if case .string(let value) = pairs[index].1 { os = PlatformName(typed: value)?.rawValue }
            result.insert(("os", .optional(os)), at: index + 1)
        }
        return result
    }

    static func value(_ value: SQLValue, column: String) -> JSONValue {
        switch value {
        case .null: return .null
        case .integer(let number):
            return booleanColumns.contains(column) ? .bool(number != 0) : .int(number)
        case .real(let number): return .double(number)
        case .text(let text):
            if jsonColumns.contains(column) { return (try? JSONParser.parse(text)) ?? .string(text) }
            return .string(text)
        case .blob(let bytes): return .string(Data(bytes).base64EncodedString())
        }
    }

    /// Whole days from `now` to `date` (negative once past), rounded down.
    static func daysLeft(_ text: String?, from now: Date) -> JSONValue {
        guard let text, let date = ISO8601.parse(text) else { return .null }
        return .int(Int64((date.timeIntervalSince(now) / 86_400).rounded(.down)))
    }
}
