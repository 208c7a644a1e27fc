import Foundation

/// A profile's `DeveloperCertificates` entry that is not a certificate this decoder can read (an
/// empty `<data/>`, bytes that are not DER). The profile is kept; the entry is listed with the
/// fingerprints of its raw bytes and why it was refused, and it takes no part in the effective expiry.
public struct UndecodableCertificate: Sendable, Equatable, Hashable, Codable {
    /// Position in `DeveloperCertificates`, from 0.
    public var index: Int
    /// Length of the raw bytes.
    public var size: Int
    /// Uppercase hex, no separators, of the raw bytes (as found, not a DER certificate).
    public var sha1: String
    public var sha256: String
    /// Why the bytes are not a certificate.
    public var reason: String

    public init(index: Int, size: Int, sha1: String, sha256: String, reason: String) {
        self.index = index
        self.size = size
        self.sha1 = sha1
        self.sha256 = sha256
        self.reason = reason
    }

    /// Fingerprints `bytes` and keeps `reason`.
    package init(index: Int, bytes: [UInt8], reason: String) {
        self.init(index: index, size: bytes.count, sha1: Digest.sha1Hex(bytes), sha256: Digest.sha256Hex(bytes),
                  reason: reason)
    }
}
