import Foundation

/// The dictionary keys of a provisioning profile too long to be stored inside a `String` (more
/// than 15 UTF-8 bytes), as literals: the XML parser returns one of these instead of making a heap
/// string of the key's text, about ten times a profile. Keys are compared byte for byte, so a key
/// that is not here, or differs in any byte, is read as before.
enum PlistKeyLiterals {
    static let all: [String] = [
        "ApplicationIdentifierPrefix", "DeveloperCertificates", "DER-Encoded-Profile", "ProvisionedDevices",
        "ProvisionsAllDevices", "application-identifier", "keychain-access-groups", "beta-reports-active",
        "com.apple.application-identifier", "com.apple.developer.team-identifier",
        "com.apple.developer.associated-domains", "com.apple.security.application-groups",
        "com.apple.developer.icloud-services", "com.apple.developer.icloud-container-identifiers",
        "com.apple.developer.icloud-container-environment", "com.apple.developer.ubiquity-kvstore-identifier",
        "com.apple.developer.ubiquity-container-identifiers", "com.apple.developer.default-data-protection",
        "com.apple.developer.in-app-payments", "com.apple.developer.pass-type-identifiers",
        "com.apple.developer.networking.wifi-info", "com.apple.developer.applesignin",
        "com.apple.developer.healthkit", "com.apple.developer.healthkit.access",
        "com.apple.developer.usernotifications.time-sensitive", "com.apple.developer.siri",
        "com.apple.developer.nfc.readersession.formats", "com.apple.developer.networking.networkextension",
        "com.apple.developer.associated-appclip-app-identifiers", "com.apple.developer.game-center",
        "com.apple.developer.homekit", "com.apple.developer.networking.vpn.api",
        "com.apple.developer.authentication-services.autofill-credential-provider",
    ]

    /// The literals by UTF-8 length (the index); only keys of more than 15 bytes need one.
    private static let byLength: [[(utf8: [UInt8], text: String)]] = {
        var table = [[(utf8: [UInt8], text: String)]](repeating: [], count: (all.map(\.utf8.count).max() ?? 0) + 1)
        for key in all where key.utf8.count > 15 { table[key.utf8.count].append((Array(key.utf8), key)) }
        return table
    }()

    /// The literal whose UTF-8 is `text`, if there is one.
    static func literal(_ text: UnsafeBufferPointer<UInt8>) -> String? {
        guard text.count > 15, text.count < byLength.count, let base = text.baseAddress else { return nil }
        let candidates = byLength[text.count]
        for candidate in candidates where candidate.utf8.withUnsafeBufferPointer({ memcmp($0.baseAddress!, base, text.count) == 0 }) {
            return candidate.text
        }
        return nil
    }
}
