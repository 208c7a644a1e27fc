import Foundation

/// Why a file could not be decoded. One `Kind` per failure kind; `path` names the file and, for
/// envelope and certificate failures, `offset` is the byte offset in the input where it was found.
/// Equality compares kind, path and offset (not the wording of `reason`).
public struct DecodeError: Error, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable, Codable {
        /// The file could not be opened or read.
        case unreadable
        /// The file has no bytes.
        case empty
        /// The file (or a zip entry) is larger than the decoder accepts.
        case tooLarge
        /// The bytes are neither a CMS envelope nor a plist.
        case unrecognized
        /// The CMS / BER structure is malformed or truncated.
        case malformedEnvelope
        /// An embedded X.509 certificate is malformed.
        case malformedCertificate
        /// The plist could not be parsed (syntax, nesting too deep, bad references).
        case malformedPlist
        /// A plist key holds a value of the wrong type, or a required key is missing.
        case invalidValue
        /// The zip archive is malformed, truncated or lies about its sizes.
        case malformedZip
        /// A bundle (.app, .xcarchive, .ipa) lacks what makes it one.
        case invalidBundle
        /// A Mach-O binary, or its code signature, is malformed or truncated.
        case malformedMachO
        /// A crash report (`.ips` or `.crash`) is malformed or truncated; the reason names the line.
        case malformedCrashReport
    }

    public var kind: Kind
    public var reason: String
    public var path: String?
    public var offset: Int?

    public init(_ kind: Kind, _ reason: String, path: String? = nil, offset: Int? = nil) {
        self.kind = kind
        self.reason = reason
        self.path = path
        self.offset = offset
    }

    /// The same error, naming `path` unless it already names a file.
    public func at(path: String) -> DecodeError {
        var copy = self
        if copy.path == nil { copy.path = path }
        return copy
    }

    /// `reason` plus the byte offset when there is one; no path (callers print `PATH: message`).
    public var message: String {
        if let offset { return "\(reason) (at byte \(offset))" }
        return reason
    }

    public var description: String {
        if let path { return "\(path): \(message)" }
        return message
    }
}

extension DecodeError: Equatable {
    public static func == (lhs: DecodeError, rhs: DecodeError) -> Bool {
        lhs.kind == rhs.kind && lhs.path == rhs.path && lhs.offset == rhs.offset
    }
}
