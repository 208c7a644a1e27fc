import Foundation

extension DecodedFile {
    /// Decodes whatever is at `url` (a `file:` URL): a profile, an `Info.plist`, or an `.app`,
    /// `.xcarchive` or `.ipa`, decided from content and layout — what `catalog decode` does.
    ///
    /// ```swift
    /// switch try DecodedFile(contentsOf: url) {
    /// case .profile(let profile): print("profile", profile.uuid)
    /// case .infoPlist(let info): print("Info.plist", info.formattedVersion)
    /// case .build(let build): print(build.sourceKind, build.info.bundleID ?? "-")
    /// }
    /// ```
    ///
    /// - Parameter trust: what a profile's signature must chain to (see
    ///   ``ProvisioningProfile/init(bytes:trust:)``); nil skips verification.
    /// - Throws: ``DecodeError`` naming the file.
    public init(contentsOf url: URL, trust: TrustAnchors? = .apple) throws {
        self = try FileDecoder.decode(path: try FileBytes.path(of: url), trust: trust)
    }

    /// Decodes file bytes: a CMS envelope is a profile; a plist is a profile when it carries a
    /// profile's keys (`UUID` with `ExpirationDate` or `DeveloperCertificates`), else an Info.plist.
    /// Bundles are folders or zips and need ``init(contentsOf:trust:)``.
    public init(bytes: some Sequence<UInt8>, trust: TrustAnchors? = .apple) throws {
        self = try FileDecoder.decode(bytes: Array(bytes), path: nil, trust: trust)
    }
}
