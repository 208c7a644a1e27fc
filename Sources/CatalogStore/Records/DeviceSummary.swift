import Foundation

/// A device some profile lists, with how many do.
package struct DeviceSummary: Sendable, Equatable {
    package var udid: String
    package var profileCount: Int
    package var firstSeen: Date?
}

extension DeviceSummary {
    init(_ row: Row) {
        self.init(udid: row.string("udid") ?? "", profileCount: row.int("profile_count") ?? 0, firstSeen: row.date("first_seen"))
    }
}
