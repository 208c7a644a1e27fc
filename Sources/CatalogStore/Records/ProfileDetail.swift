import CatalogCore
import Foundation

/// Everything the catalogue knows about one profile (`catalog show`).
package struct ProfileDetail: Sendable, Equatable {
    package var uuid: String
    package var name: String
    package var appIDName: String?
    package var teamID: String?
    package var teamName: String?
    package var teamIdentifiers: [String]
    package var applicationIdentifierPrefixes: [String]
    package var platforms: [String]
    package var kind: ProfileKind
    package var xcodeManaged: Bool?
    package var ppqCheck: Bool?
    package var creationDate: Date?
    package var expirationDate: Date?
    package var effectiveExpirationDate: Date?
    package var expiryCause: ProvisioningProfile.ExpiryCause?
    package var applicationIdentifier: String?
    package var bundleID: String?
    package var apsEnvironment: String?
    package var getTaskAllow: Bool?
    package var provisionsAllDevices: Bool
    /// Devices as the profile lists them, repeats included.
    package var deviceCount: Int
    package var certificateCount: Int
    package var timeToLive: Int?
    package var version: Int?
    /// SHA-256 of the profile file.
    package var sha256: String
    package var firstSeen: Date?
    package var lastSeen: Date?
    package var signature: ProfileSignature.Status?
    package var signatureReason: String?
    package var derProfile: DERProfileCheck.Status?
    package var derProfileDifferences: [String]
    /// Every entitlement with its value as in the plist, by key.
    package var entitlements: [Entitlement]
    package var certificates: [CertificateSummary]
    package var undecodableCertificates: [UndecodableCertificate]
    /// The UDIDs, each once, sorted.
    package var devices: [String]
    package var locations: [ProfileLocation]
    /// The builds that embed it, present or removed.
    package var builds: [BuildSummary]
    package var renewals: [ProfileRenewal]

    package var os: PlatformName { PlatformName(profilePlatforms: platforms) }
    /// UDIDs the profile lists more than once (`devices` lists each once).
    package var duplicateDevices: Int { max(0, deviceCount - devices.count) }

    /// One entitlement: its key and its value (a plist value, stored as JSON).
    package struct Entitlement: Sendable, Equatable {
        package var key: String
        package var value: JSONValue
    }
}
