import Foundation

/// When a build stops launching on users' devices, by how it is distributed (its embedded
/// profiles' kind), over the app and every nested bundle that embeds a profile; the soonest wins.
///
/// Apple's rules ("What happens if my certificate expires or is revoked", TN3125):
/// - development, ad-hoc, enterprise: the earlier of the profile's expiry and the expiry of the
///   certificate that signed the code (not the latest certificate the profile lists);
/// - app-store: none: the App Store re-signs what users install;
/// - developer-id: the profile's expiry only (an expired Developer ID certificate does not stop a
///   signed app; a revoked one does, which needs the network to know).
public struct LaunchLimit: Sendable, Equatable {
    public enum Cause: String, Sendable, CaseIterable, Codable {
        /// The embedded profile's `ExpirationDate`.
        case profile
        /// The `notAfter` of the certificate the code is signed with.
        case certificate
        /// Nothing stops it: every embedded profile is an App Store one.
        case appStore = "app-store"
    }

    /// Nil when nothing stops the build from launching (``Cause/appStore``).
    public var date: Date?
    public var cause: Cause
    /// The executable of the bundle that decides (``SigningSubject/executable``).
    public var executable: String
    /// That bundle's `CFBundleIdentifier`.
    public var bundleID: String?
    /// One sentence for a person: which date of which profile or certificate, and why.
    public var reason: String

    public init(date: Date?, cause: Cause, executable: String, bundleID: String?, reason: String) {
        self.date = date
        self.cause = cause
        self.executable = executable
        self.bundleID = bundleID
        self.reason = reason
    }

    /// The limit of one bundle, or nil when it embeds no decoded profile (nothing is known of how it
    /// is distributed).
    public static func of(_ subject: SigningSubject) -> LaunchLimit? {
        guard let profile = subject.profile else { return nil }
        let label = "the \(profile.kind.rawValue) profile '\(profile.name)' (\(profile.uuid))"
        func limit(_ date: Date?, _ cause: Cause, _ reason: String) -> LaunchLimit {
            LaunchLimit(date: date, cause: cause, executable: subject.executable, bundleID: subject.bundleID, reason: reason)
        }
        switch profile.kind {
        case .appStore:
            return limit(nil, .appStore, "\(label): the App Store re-signs what users install, so neither the profile's "
                         + "nor the certificate's expiry stops it")
        case .developerID:
            return limit(profile.expirationDate, .profile, "\(label) expires \(ISO8601.format(profile.expirationDate)); "
                         + "an expired Developer ID certificate does not stop a signed app")
        case .development, .adHoc, .enterprise:
            if case .signed(let signature) = subject.binary, let leaf = signature.signingCertificate,
               leaf.notAfter < profile.expirationDate {
                return limit(leaf.notAfter, .certificate, "the signing certificate '\(leaf.commonName ?? "?")' expires "
                             + "\(ISO8601.format(leaf.notAfter)), before \(label)")
            }
            return limit(profile.expirationDate, .profile, "\(label) expires \(ISO8601.format(profile.expirationDate))")
        }
    }

    /// The soonest limit over `subjects` (the app first: it wins a tie). A build whose bundles are
    /// all App Store ones gets the app's ``Cause/appStore`` limit; nil when no bundle's profile is known.
    public static func soonest(_ subjects: [SigningSubject]) -> LaunchLimit? {
        let limits = subjects.compactMap(of)
        return limits.filter { $0.date != nil }.min { $0.date! < $1.date! } ?? limits.first
    }
}

extension BuildArtifact {
    /// When the build stops launching (see ``LaunchLimit``); nil when no embedded profile is known.
    public var launchLimit: LaunchLimit? { LaunchLimit.soonest(signingSubjects) }
}
