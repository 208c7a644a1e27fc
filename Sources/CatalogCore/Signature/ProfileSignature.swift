import Foundation

/// The verdict on a profile's CMS signature: one status and the reason behind it.
///
/// - `verified`: the signer's signature covers the plist (directly, or through the signed
///   attributes whose message digest matches it), and the signer's certificate chains, link by
///   link, to a pinned root, every certificate valid at the signing time.
/// - `unsigned`: no signer at all (no SignerInfo, or a bare plist without an envelope).
/// - `invalid`: the content, a signed attribute or the signature bytes do not match.
/// - `untrusted`: the signature is sound but the chain does not reach a pinned root (missing
///   intermediate, unknown or look-alike root, expired link, signer not a profile-signing certificate).
/// - `error`: could not be checked (malformed envelope, unsupported algorithm).
public struct ProfileSignature: Sendable, Equatable, Hashable, Codable {
    public enum Status: String, Sendable, CaseIterable, Codable {
        case verified, unsigned, invalid, untrusted, error
    }

    public var status: Status
    public var reason: String

    public init(_ status: Status, _ reason: String) {
        self.status = status
        self.reason = reason
    }
}
