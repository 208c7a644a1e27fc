import Foundation

/// The checks `catalog verify` and a build's `signing_problems` make: a bundle's signature against
/// its embedded profile, at a date. Pure: everything comes from the ``SigningSubject``.
///
/// Rules where Apple's tools leave room:
/// - A simulator build is never checked (it needs no profile and is ad hoc by design).
/// - Without an embedded profile only `unsigned`, `ad-hoc` and `no-profile` can be found; a macOS
///   bundle needs a profile only when it claims entitlements outside `com.apple.security.*`.
/// - A profile that is present but not decoded skips the checks that need it.
/// - `com.apple.security.*` entitlements on macOS (sandbox, hardened runtime) need no grant.
/// - `get-task-allow` is judged by its own code, not as an entitlement; a macOS profile that does
///   not state it is not compared.
public enum SigningCheck {
    /// The problems of `subject` at `asOf`, in the order of ``SigningProblem/Code``.
    public static func problems(_ subject: SigningSubject, asOf: Date) -> [SigningProblem] {
        guard !subject.isSimulator else { return [] }
        var problems: [SigningProblem] = []
        func add(_ code: SigningProblem.Code, _ message: String, date: Date? = nil) {
            problems.append(SigningProblem(code, executable: subject.executable, message: message, date: date))
        }
        var signature: CodeSignature?
        switch subject.binary {
        case .unsigned(let architectures):
            add(.unsigned, "\(subject.executable) has no code signature (\(architectures.joined(separator: ", ")))")
        case .signed(let signed):
            signature = signed
            if signed.isAdHoc {
                add(.adHoc, "\(subject.executable) is signed ad hoc, without a certificate: no device accepts it")
            }
        case .missing, .unreadable:
            break
        }
        let claimed = signature?.claimedEntitlements ?? PlistDictionary()

        guard subject.hasEmbeddedProfile else {
            let needsProfile = !subject.isMacOS || claimed.keys.contains { !isMacOSUnrestricted($0) }
            if needsProfile {
                add(.noProfile, subject.isMacOS
                    ? "no Contents/embedded.provisionprofile, but it claims entitlements that need one"
                    : "no embedded.mobileprovision")
            }
            return problems
        }
        guard let profile = subject.profile else { return problems }
        let profileLabel = "the profile '\(profile.name)' (\(profile.uuid))"

        if let signature, let leaf = signature.signingCertificate {
            let listed = profile.certificates.map(\.sha1) + profile.undecodableCertificates.map(\.sha1)
            if !listed.contains(leaf.sha1) {
                add(.certificateNotInProfile, "signed by '\(leaf.commonName ?? "?")' (SHA-1 \(leaf.sha1)), which is not "
                    + "among the \(listed.count) developer certificate\(listed.count == 1 ? "" : "s") of \(profileLabel)")
            }
        }
        if let team = signature?.teamID {
            let teams = profile.teamIdentifiers.isEmpty ? profile.teamID.map { [$0] } ?? [] : profile.teamIdentifiers
            if !teams.isEmpty && !teams.contains(team) {
                add(.teamMismatch, "signed for team \(team); \(profileLabel) is team \(teams.joined(separator: ", "))")
            }
        }
        if let bundleID = subject.bundleID, let appID = profile.bundleID, !covers(appID, bundleID) {
            add(.bundleIDNotCovered, "bundle id \(bundleID) is not covered by the application identifier "
                + "\(profile.applicationIdentifier ?? appID) of \(profileLabel)")
        }
        if signature != nil {
            for key in claimed.keys.sorted() where !getTaskAllowKeys.contains(key) {
                guard !(subject.isMacOS && isMacOSUnrestricted(key)), let value = claimed[key] else { continue }
                guard let granted = profile.entitlements[key] else {
                    add(.entitlementNotAllowed, "entitlement \(key) is signed but \(profileLabel) does not grant it")
                    continue
                }
                if !allows(granted, value) {
                    add(.entitlementNotAllowed, "entitlement \(key) is signed as \(describe(value)); "
                        + "\(profileLabel) grants \(describe(granted))")
                }
            }
        }
        if profile.expirationDate < asOf {
            add(.profileExpired, "\(profileLabel) expired \(ISO8601.format(profile.expirationDate))", date: profile.expirationDate)
        }
        if let leaf = signature?.signingCertificate, leaf.notAfter < asOf {
            add(.certificateExpired, "the signing certificate '\(leaf.commonName ?? "?")' expired \(ISO8601.format(leaf.notAfter))",
                date: leaf.notAfter)
        }
        if signature != nil {
            let signed = getTaskAllowKeys.lazy.compactMap { claimed[$0]?.bool }.first ?? false
            if let granted = profile.getTaskAllow ?? (subject.isMacOS ? nil : false), signed != granted {
                add(.getTaskAllowMismatch, "signed with get-task-allow \(signed); \(profileLabel) (\(profile.kind.rawValue)) "
                    + "grants \(granted)")
            }
        }
        return problems
    }

    static let getTaskAllowKeys = ["get-task-allow", "com.apple.security.get-task-allow"]

    /// macOS entitlements any signer may claim: the sandbox and hardened-runtime families.
    static func isMacOSUnrestricted(_ key: String) -> Bool { key.hasPrefix("com.apple.security.") }

    /// Whether a profile's app id (team prefix removed: `com.example.app`, `com.example.*`, `*`)
    /// covers a bundle id. A Mac Catalyst app id (`maccatalyst.com.example.app`) covers the bundle
    /// id without its prefix.
    public static func covers(_ appID: String, _ bundleID: String) -> Bool {
        if matches(appID, bundleID) { return true }
        let catalyst = "maccatalyst."
        return appID.hasPrefix(catalyst) && matches(String(appID.dropFirst(catalyst.count)), bundleID)
    }

    /// Apple's wildcard: a pattern ending in `*` matches every string with the part before it as a
    /// prefix (`TEAM.*`, `*`); any other pattern matches itself.
    public static func matches(_ pattern: String, _ value: String) -> Bool {
        if pattern.hasSuffix("*") { return value.hasPrefix(pattern.dropLast()) }
        return pattern == value
    }

    /// Whether a profile's entitlement value grants a signed one: `"*"` grants anything; a signed
    /// array is granted when each member is; a profile array grants what one of its members
    /// grants; strings match with ``matches(_:_:)``; other values must be equal; a signed `false`
    /// claims nothing.
    public static func allows(_ granted: PlistValue, _ claimed: PlistValue) -> Bool {
        if case .bool(false) = claimed { return true }
        if case .string("*") = granted { return true }
        switch (granted, claimed) {
        case (_, .array(let items)):
            return items.allSatisfy { allows(granted, $0) }
        case (.array(let options), _):
            return options.contains { allows($0, claimed) }
        case (.string(let pattern), .string(let value)):
            return matches(pattern, value)
        case (.dictionary(let grantedKeys), .dictionary(let claimedKeys)):
            return claimedKeys.allSatisfy { key, value in grantedKeys[key].map { allows($0, value) } ?? false }
        default:
            return DERProfileCheck.same(granted, claimed)
        }
    }

    /// A value as it reads in a message: strings bare, arrays in brackets.
    private static func describe(_ value: PlistValue) -> String {
        switch value {
        case .string(let text): return text
        case .bool(let flag): return String(flag)
        case .integer(let number): return String(number)
        case .array(let items): return "[" + items.map(describe).joined(separator: ", ") + "]"
        default: return value.typeName
        }
    }
}
