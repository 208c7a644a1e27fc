import CatalogCore
import Foundation

/// One profile as a listing shows it (`profiles`, `expiring`, `devices UDID`): its facts, one
/// present location, and what the catalogue knows about its renewals.
package struct ProfileSummary: Sendable, Equatable {
    package var uuid: String
    package var name: String
    package var teamID: String?
    package var teamName: String?
    package var kind: ProfileKind
    /// `Platform` as written; empty when absent.
    package var platforms: [String]
    package var bundleID: String?
    package var applicationIdentifier: String?
    package var creationDate: Date?
    package var expirationDate: Date?
    package var effectiveExpirationDate: Date?
    package var expiryCause: ProvisioningProfile.ExpiryCause?
    package var deviceCount: Int
    package var provisionsAllDevices: Bool
    package var apsEnvironment: String?
    package var getTaskAllow: Bool?
    package var xcodeManaged: Bool?
    /// nil until verified (catalogued before verification existed, or with it off).
    package var signature: ProfileSignature.Status?
    package var derProfile: DERProfileCheck.Status?
    /// The host of the location `path` is; nil for a SQLite catalogue's own, unnamed host (and when
    /// there is no present location).
    package var host: String?
    /// One present location: a standalone file first, else a build it is embedded in.
    package var path: String?
    /// Present as a standalone file.
    package var installed: Bool
    /// The newest present profile that supersedes this one (README, "Renewals").
    package var supersededBy: String?
    /// With a `--bundle-id` lookup that includes wildcards: how this profile matched.
    package var bundleIDMatch: BundleIDMatch?

    /// The one platform in the iOS/macOS/tvOS/watchOS/visionOS vocabulary (absent `Platform` is iOS).
    package var os: PlatformName { PlatformName(profilePlatforms: platforms) }
}

/// How a profile found by bundle id matched it: the id itself, or a wildcard app id covering it.
package enum BundleIDMatch: String, Sendable {
    case exact
    case wildcard
}
