import CatalogCore
import CatalogStore

extension DeviceSummary {
    /// The device row (`devices`).
    var output: JSONValue {
        .object([("udid", .string(udid)), ("profile_count", .int(Int64(profileCount))), ("first_seen", .optional(firstSeen))])
    }
}
