import Foundation

/// A decoded provisioning profile: every key of the plist typed, unknown keys kept, and the values
/// derived from them.
public struct ProvisioningProfile: Sendable, Equatable {
    public var uuid: String                      // uppercased
    public var name: String
    public var appIDName: String?
    public var applicationIdentifierPrefixes: [String]
    public var teamIdentifiers: [String]
    public var teamName: String?
    /// `Platform` as written; empty when the key is absent (2013-era profiles), which means iOS.
    public var platforms: [String]
    public var creationDate: Date
    public var expirationDate: Date
    public var devices: [String]
    public var provisionsAllDevices: Bool
    public var xcodeManaged: Bool?
    public var ppqCheck: Bool?
    public var timeToLive: Int?
    public var version: Int?
    /// The whole `Entitlements` dict.
    public var entitlements: PlistDictionary
    /// The decoded `DeveloperCertificates` entries, in order.
    public var certificates: [DeveloperCertificate]
    /// The DER of each of `certificates`, in the same order: the bytes the plist parser decoded,
    /// which the catalogue's stored plist refers to instead of holding their base64.
    package var certificateDERs: [[UInt8]] = []
    /// The `DeveloperCertificates` entries that are not readable certificates (not in `certificates`).
    public var undecodableCertificates: [UndecodableCertificate] = []
    /// `DER-Encoded-Profile`, kept as bytes.
    public var derEncodedProfile: [UInt8]?
    /// Keys this model does not type, with their values.
    public var unknownKeys: PlistDictionary
    /// The plist exactly as found in the envelope (or the file, for a bare plist).
    public var rawPlist: [UInt8]
    /// How many certificates the CMS envelope carried (signer chain), 0 for a bare plist.
    public var envelopeCertificateCount: Int
    /// SHA-256 (uppercase hex) of the profile file's bytes, envelope included.
    public var sha256: String = ""
    /// The envelope's signature verdict; nil when verification was not asked for.
    public var signature: ProfileSignature?
    /// How `DER-Encoded-Profile` compares with the plist.
    public var derProfile = DERProfileCheck(.absent)
    /// Bytes after the CMS envelope that were ignored (a trailing newline), 0 for most files.
    public var envelopeTrailingBytes: Int = 0

    public init(uuid: String, name: String, appIDName: String?, applicationIdentifierPrefixes: [String],
                teamIdentifiers: [String], teamName: String?, platforms: [String], creationDate: Date,
                expirationDate: Date, devices: [String], provisionsAllDevices: Bool, xcodeManaged: Bool?,
                ppqCheck: Bool?, timeToLive: Int?, version: Int?, entitlements: PlistDictionary,
                certificates: [DeveloperCertificate], derEncodedProfile: [UInt8]?,
                unknownKeys: PlistDictionary, rawPlist: [UInt8], envelopeCertificateCount: Int) {
        self.uuid = uuid
        self.name = name
        self.appIDName = appIDName
        self.applicationIdentifierPrefixes = applicationIdentifierPrefixes
        self.teamIdentifiers = teamIdentifiers
        self.teamName = teamName
        self.platforms = platforms
        self.creationDate = creationDate
        self.expirationDate = expirationDate
        self.devices = devices
        self.provisionsAllDevices = provisionsAllDevices
        self.xcodeManaged = xcodeManaged
        self.ppqCheck = ppqCheck
        self.timeToLive = timeToLive
        self.version = version
        self.entitlements = entitlements
        self.certificates = certificates
        self.derEncodedProfile = derEncodedProfile
        self.unknownKeys = unknownKeys
        self.rawPlist = rawPlist
        self.envelopeCertificateCount = envelopeCertificateCount
    }
}

// MARK: - Derived values

extension ProvisioningProfile {
    /// Which date decides when a profile stops working.
    public enum ExpiryCause: String, Sendable, CaseIterable, Codable {
        case profile
        case certificate
    }

    public var teamID: String? { teamIdentifiers.first ?? applicationIdentifierPrefixes.first }

    public var isMacOS: Bool { platforms.contains { $0 == "OSX" || $0 == "macOS" } }

    /// `application-identifier`, or macOS's `com.apple.application-identifier`.
    public var applicationIdentifier: String? {
        entitlements["application-identifier"]?.string
            ?? entitlements["com.apple.application-identifier"]?.string
    }

    /// The app id without its team prefix; wildcards (`*`, `com.example.*`) kept.
    public var bundleID: String? {
        guard let appID = applicationIdentifier else { return nil }
        guard let dot = appID.firstIndex(of: ".") else { return appID }
        return String(appID[appID.index(after: dot)...])
    }

    public var apsEnvironment: String? {
        entitlements["aps-environment"]?.string
            ?? entitlements["com.apple.developer.aps-environment"]?.string
    }

    public var getTaskAllow: Bool? {
        entitlements["get-task-allow"]?.bool ?? entitlements["com.apple.security.get-task-allow"]?.bool
    }

    public var kind: ProfileKind {
        ProfileKind.derive(provisionsAllDevices: provisionsAllDevices, hasDevices: !devices.isEmpty,
                           isMacOS: isMacOS, getTaskAllow: getTaskAllow)
    }

    /// What was accepted although not quite right, one sentence each: undecodable certificates and
    /// ignored trailing bytes. Commands print them as warnings.
    public var warnings: [String] {
        var lines = undecodableCertificates.map {
            "DeveloperCertificates[\($0.index)] is not a certificate (\($0.reason)); "
                + "listed as undecodable (SHA-1 \($0.sha1)), left out of the effective expiry"
        }
        if envelopeTrailingBytes > 0 {
            lines.append("\(envelopeTrailingBytes) trailing byte\(envelopeTrailingBytes == 1 ? "" : "s") "
                         + "after the CMS envelope ignored")
        }
        return lines
    }

    /// The latest `notAfter` among the decodable developer certificates, if any.
    public var latestCertificateExpiry: Date? { certificates.map(\.notAfter).max() }

    /// min(ExpirationDate, latest certificate notAfter).
    public var effectiveExpirationDate: Date {
        guard let cert = latestCertificateExpiry else { return expirationDate }
        return min(cert, expirationDate)
    }

    public var effectiveExpiryCause: ExpiryCause {
        guard let cert = latestCertificateExpiry, cert < expirationDate else { return .profile }
        return .certificate
    }
}
