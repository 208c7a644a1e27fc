import CatalogCore
import Foundation

/// A build that embeds a profile, as `show` lists it.
package struct EmbeddingBuild: Sendable, Equatable {
    package var bundleID: String?
    package var shortVersion: String
    package var build: String
    package var sourceKind: BuildArtifact.SourceKind
    package var path: String
    package var appPath: String?
    package var archivedAt: Date?
    package var removedAt: Date?

    /// `short_version (build)`.
    package var formattedVersion: String { "\(shortVersion) (\(build))" }
}

extension EmbeddingBuild {
    init(_ row: Row) throws {
        self.init(
            bundleID: row.string("bundle_id"), shortVersion: row.string("short_version") ?? "",
            build: row.string("build") ?? "", sourceKind: try row.value("source_kind", as: BuildArtifact.SourceKind.self),
            path: row.string("path") ?? "", appPath: row.string("app_path").flatMap { $0.isEmpty ? nil : $0 },
            archivedAt: row.date("archived_at"), removedAt: row.date("removed_at"))
    }
}
