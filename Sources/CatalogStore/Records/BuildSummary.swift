import CatalogCore
import Foundation

/// One catalogued build (`builds`, `expiring --builds`, `devices UDID`): what it is, where it was
/// found, and what its embedded profile lets it do.
package struct BuildSummary: Sendable, Equatable {
    package var bundleID: String?
    package var shortVersion: String
    package var build: String
    package var sourceKind: BuildArtifact.SourceKind
    /// The host the path is on; nil for a SQLite catalogue's own, unnamed host.
    package var host: String?
    package var path: String
    /// The bundle's path inside its container (`Payload/X.app`); nil for a bare `.app`.
    package var appPath: String?
    package var profileUUID: String?
    package var profileName: String?
    package var teamID: String?
    /// As written (`iPhoneOS`).
    package var platform: String?
    package var packageType: String?
    package var archivedAt: Date?
    package var signingIdentity: String?
    /// For an extension or watch app: the bundle id of the app it is nested in.
    package var parentBundleID: String?
    package var firstSeen: Date?
    package var lastSeen: Date?
    package var removedAt: Date?
    package var profileKind: ProfileKind?
    /// When it stops launching, as the ingest judged it (``LaunchLimit``): nil when nothing stops
    /// it (``launchesUntilCause`` app-store) or nothing is known (no cause either).
    package var launchesUntil: Date?
    package var launchesUntilCause: LaunchLimit.Cause?
    /// The executable of the bundle (the app or a nested one) whose limit it is.
    package var launchesUntilExecutable: String?
    /// Why, in one sentence.
    package var launchesUntilReason: String?
    package var profileSupersededBy: String?
    /// Why its file no longer decodes (then `removedAt` is set).
    package var error: String?
    /// Found by a binary's UUID (``CatalogQueries/BuildFilter/binaryUUID``): where it is in the build.
    package var binaryMatch: BinaryMatch? = nil
    /// Its executables, dSYMs and signing problems; nil for a stray Info.plist, and for a build
    /// catalogued before the catalogue kept them, until the next ingest reads it again.
    package var signing: BuildSigning? = nil

    /// Where a build holds the binary of one UUID: paths inside the build, as `decode` gives them.
    package struct BinaryMatch: Sendable, Equatable {
        package var uuid: String
        package var arch: String?
        /// The executable with that UUID; nil when only its dSYM is here.
        package var executablePath: String?
        package var role: String?
        /// An `.xcarchive`'s `dSYMs/…/DWARF/…` file with that UUID; nil when none.
        package var dsymPath: String?

        init(uuid: String, _ row: Row) {
            self.init(uuid: uuid, arch: row.string("binary_arch"), executablePath: row.string("binary_path"),
                      role: row.string("binary_role"), dsymPath: row.string("dsym_path"))
        }

        package init(uuid: String, arch: String?, executablePath: String?, role: String?, dsymPath: String?) {
            self.uuid = uuid
            self.arch = arch
            self.executablePath = executablePath
            self.role = role
            self.dsymPath = dsymPath
        }
    }

    package var formattedVersion: String { "\(shortVersion) (\(build))" }
    package var os: PlatformName? { platform.flatMap(PlatformName.init(typed:)) }
}

extension BuildSummary {
    /// A row of `CatalogQueries.buildColumns`.
    init(_ row: Row) throws {
        self.init(
            bundleID: row.string("bundle_id"), shortVersion: row.string("short_version") ?? "",
            build: row.string("build") ?? "", sourceKind: try row.value("source_kind", as: BuildArtifact.SourceKind.self),
            host: row.string("host"), path: row.string("path") ?? "", appPath: row.string("app_path"), profileUUID: row.string("profile_uuid"),
            profileName: row.string("profile_name"), teamID: row.string("team_id"), platform: row.string("platform"),
            packageType: row.string("package_type"), archivedAt: row.date("archived_at"),
            signingIdentity: row.string("signing_identity"), parentBundleID: row.string("parent_bundle_id"),
            firstSeen: row.date("first_seen"), lastSeen: row.date("last_seen"), removedAt: row.date("removed_at"),
            profileKind: try row.optionalValue("profile_kind", as: ProfileKind.self),
            launchesUntil: row.date("launches_until"),
            launchesUntilCause: try row.optionalValue("launches_until_cause", as: LaunchLimit.Cause.self),
            launchesUntilExecutable: row.string("launches_until_executable"),
            launchesUntilReason: row.string("launches_until_reason"),
            profileSupersededBy: row.string("profile_superseded_by"), error: row.string("error"))
    }
}
