import Foundation

extension ProvisioningProfile {
    /// Decodes a provisioning profile (`.mobileprovision`, `.provisionprofile`) from its bytes: a
    /// CMS SignedData envelope (DER or BER) around a plist, or a bare XML or binary plist.
    ///
    /// ```swift
    /// let profile = try ProvisioningProfile(bytes: Data(contentsOf: url))
    /// print(profile.name, profile.teamID ?? "-", profile.expirationDate, profile.kind)
    /// ```
    ///
    /// - Parameters:
    ///   - bytes: the whole file, envelope included (`sha256` is their hash).
    ///   - trust: what the envelope's signature must chain to: Apple's pinned roots by default,
    ///     your own with ``TrustAnchors/init(pem:signerCommonNames:)``; nil skips verification and
    ///     leaves ``signature`` nil.
    /// - Throws: ``DecodeError`` saying what is wrong (`.malformedEnvelope`, `.malformedPlist`,
    ///   `.invalidValue` for a missing `UUID`, …). A bad signature is not an error: it is
    ///   reported in ``signature``.
    public init(bytes: some Sequence<UInt8>, trust: TrustAnchors? = .apple) throws {
        self = try ProfileDecoder.decode(Array(bytes), trust: trust)
    }

    /// Reads and decodes the profile file at `url` (a `file:` URL); errors name its path.
    ///
    /// ```swift
    /// let url = URL(fileURLWithPath: "Downloads/Example.mobileprovision")
    /// let profile = try ProvisioningProfile(contentsOf: url)
    /// ```
    public init(contentsOf url: URL, trust: TrustAnchors? = .apple) throws {
        let path = try FileBytes.path(of: url)
        let bytes = try FileBytes.read(path, limit: ProfileDecoder.maximumSize)
        self = try ProfileDecoder.decode(bytes, path: path, trust: trust)
    }
}
