import CatalogCore
import Foundation

/// One marketing version of an app (`versions BUNDLE_ID`): its builds and when they were seen.
package struct VersionSummary: Sendable, Equatable {
    package var bundleID: String
    package var shortVersion: String
    /// Build numbers, newest first, each once.
    package var buildNumbers: [String]
    /// Builds catalogued: each build (number and team) once, however many containers hold a copy.
    package var buildCount: Int
    package var sources: [BuildArtifact.SourceKind]
    package var firstSeen: Date?
    package var lastSeen: Date?
    package var firstArchivedAt: Date?
    package var lastArchivedAt: Date?
    /// The newest build's embedded profile (of its copies that embed one, the one that stops
    /// launching first): its kind, when the build stops launching, its renewal.
    package var profileKind: ProfileKind?
    package var launchesUntil: Date?
    package var profileSupersededBy: String?

    package var latestBuild: String? { buildNumbers.first }
    package var formattedVersion: String? { latestBuild.map { "\(shortVersion) (\($0))" } }
}
