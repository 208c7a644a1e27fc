import Foundation

/// Why a build would not install, or not pass App Store processing: one fact about one bundle's
/// signature against its embedded profile.
public struct SigningProblem: Sendable, Equatable, Hashable {
    public enum Code: String, Sendable, CaseIterable, Codable {
        /// The executable has no code signature.
        case unsigned
        /// Signed without a certificate (`codesign -s -`, a simulator or linker signature).
        case adHoc = "ad-hoc"
        /// A part of the code signature (or the executable itself) could not be read: nothing it
        /// would have sealed counts as checked. The message names the part and the reason.
        case signatureUnreadable = "signature-unreadable"
        /// The CMS signature does not verify over the CodeDirectory (message digest, signature,
        /// CDHashes attributes), or a signature blob the CodeDirectory binds was changed.
        case signatureInvalid = "signature-invalid"
        /// The signing certificate does not chain to Apple's pinned roots through the blob's
        /// intermediates (a self-signed or other CA's certificate).
        case certificateNotApple = "certificate-not-apple"
        /// A page of the executable does not hash to its CodeDirectory's code slot.
        case codeModified = "code-modified"
        /// The bundle's Info.plist does not hash to special slot −1.
        case infoPlistModified = "info-plist-modified"
        /// `_CodeSignature/CodeResources` does not hash to special slot −3 (or is missing).
        case resourcesSealModified = "resources-seal-modified"
        /// The XML or DER entitlements blob does not hash to special slot −5 or −7.
        case entitlementsModified = "entitlements-modified"
        /// The XML and DER entitlements are both present and say different things.
        case entitlementsMismatch = "entitlements-mismatch"
        /// A file the resource seal lists differs from it (one problem per file).
        case resourceModified = "resource-modified"
        /// A file the resource seal lists (and does not mark optional) is missing.
        case resourceMissing = "resource-missing"
        /// A file the seal's rules cover but the seal does not list.
        case resourceAdded = "resource-added"
        /// Nested code the parent's seal lists by cdhash has another cdhash (macOS form).
        case nestedCodeModified = "nested-code-modified"
        /// The bundle embeds no profile (a macOS app only needs one for restricted entitlements).
        case noProfile = "no-profile"
        /// The signing certificate is not among the profile's `DeveloperCertificates`.
        case certificateNotInProfile = "certificate-not-in-profile"
        /// The CodeDirectory's team is not the profile's.
        case teamMismatch = "team-mismatch"
        /// The Info.plist bundle id is not covered by the profile's application identifier.
        case bundleIDNotCovered = "bundle-id-not-covered"
        /// A signed entitlement the profile does not grant (one problem per key).
        case entitlementNotAllowed = "entitlement-not-allowed"
        /// The profile's `ExpirationDate` has passed.
        case profileExpired = "profile-expired"
        /// The signing certificate's `notAfter` has passed.
        case certificateExpired = "certificate-expired"
        /// `get-task-allow` signed otherwise than the profile grants it (a debug build with a
        /// distribution profile, or the reverse).
        case getTaskAllowMismatch = "get-task-allow-mismatch"
    }

    public var code: Code
    /// The executable of the bundle concerned (``SigningSubject/executable``).
    public var executable: String
    /// One sentence for a person.
    public var message: String
    /// For a dated code (`profile-expired`, `certificate-expired`): the date that has passed (the
    /// profile's expiry, the certificate's `notAfter`); the problem holds at any later date. Nil
    /// for the others.
    public var date: Date?

    public init(_ code: Code, executable: String, message: String, date: Date? = nil) {
        self.code = code
        self.executable = executable
        self.message = message
        self.date = date
    }
}
