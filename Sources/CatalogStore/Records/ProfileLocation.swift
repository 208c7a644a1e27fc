import Foundation

/// A place a profile was seen: a file of its own, or embedded in a build.
package struct ProfileLocation: Sendable, Equatable {
    /// The host the path is on; nil for a SQLite catalogue's own, unnamed host.
    package var host: String?
    package var path: String
    package var containerKind: ContainerKind
    package var containerPath: String?
    package var size: Int?
    package var mtime: Date?
    package var firstSeen: Date?
    package var lastSeen: Date?
    package var removedAt: Date?
    /// Why the file there no longer decodes (then `removedAt` is set).
    package var error: String?
}

extension ProfileLocation {
    init(_ row: Row) throws {
        self.init(
            host: row.string("host"), path: row.string("path") ?? "", containerKind: try row.value("container_kind", as: ContainerKind.self),
            containerPath: row.string("container_path"), size: row.int("size"), mtime: row.date("mtime"),
            firstSeen: row.date("first_seen"), lastSeen: row.date("last_seen"), removedAt: row.date("removed_at"),
            error: row.string("error"))
    }
}
