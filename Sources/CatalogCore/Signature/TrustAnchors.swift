import Foundation

/// The roots a profile signature may chain to, pinned by the SHA-256 of each root certificate, and
/// which signer certificates count as profile signers.
///
/// Production uses `TrustAnchors.apple`. Tests inject their own (the fixtures' test CA) to prove
/// the `verified` path on a clean clone; the CLI never does, so fixture profiles are `untrusted` there.
public struct TrustAnchors: Sendable {
    let roots: [ChainCertificate]
    /// Subject common names a signer certificate must have; nil accepts any signer that chains.
    let signerCommonNames: Set<String>?

    /// `certificates` are DER root certificates, trusted by their exact bytes (SHA-256), never by
    /// name. Throws `DecodeError` (`.malformedCertificate`) for one that does not parse.
    public init(certificates: [[UInt8]], signerCommonNames: Set<String>? = nil) throws {
        roots = try certificates.map { try ChainCertificate(der: $0) }
        self.signerCommonNames = signerCommonNames
    }

    /// Roots from PEM text (`-----BEGIN CERTIFICATE-----` blocks).
    public init(pem: String, signerCommonNames: Set<String>? = nil) throws {
        var certificates: [[UInt8]] = []
        var body: String? = nil
        for line in pem.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("-----BEGIN CERTIFICATE") { body = "" }
            else if line.hasPrefix("-----END CERTIFICATE"), let text = body {
                guard let data = Data(base64Encoded: text) else {
                    throw DecodeError(.malformedCertificate, "PEM certificate is not valid base64")
                }
                certificates.append(Array(data))
                body = nil
            } else if body != nil { body! += line.trimmingCharacters(in: .whitespaces) }
        }
        guard !certificates.isEmpty else { throw DecodeError(.malformedCertificate, "no PEM certificate found") }
        try self.init(certificates: certificates, signerCommonNames: signerCommonNames)
    }

    /// The same roots for a code signature, whose signer is any certificate they issued (a
    /// developer's leaf), not a profile signer.
    var forCodeSigning: TrustAnchors { TrustAnchors(roots: roots, signerCommonNames: nil) }

    func root(withSHA256 digest: [UInt8]) -> ChainCertificate? { roots.first { $0.sha256 == digest } }

    // MARK: Apple

    /// SHA-256 of the DER of "Apple Root CA" and of the older "Apple Root Certificate Authority",
    /// as Apple publishes them and as observed in every real profile that carries them.
    public static let appleRootPins: [String: String] = [
        "Apple Root CA": "B0B1730ECBC7FF4505142C49F1295E6EDA6BCAED7E2C68C5BE91B5A11001F024",
        "Apple Root Certificate Authority": "0D83B611B648A1A75EB8558400795375CAD92E264ED8E9D7A757C1F5EE2BB22D",
    ]

    /// The CNs of Apple's profile-signing certificates. A certificate that chains to Apple's root is
    /// not enough: every developer's own certificate does (through WWDR), and would otherwise let
    /// anyone sign a profile that verifies. Only Apple's CAs issue these names, so after the chain
    /// checks (with cA required on every issuer) the name identifies the signer.
    public static let appleSignerCommonNames: Set<String> = [
        "Apple iPhone OS Provisioning Profile Signing",
        "Mac OS X Provisioning Profile Signing",
    ]

    /// Apple's roots, compiled in; a compiled-in certificate whose hash is not its pin is left out,
    /// so a corrupted root can only make profiles `untrusted`, never `verified`.
    public static let apple: TrustAnchors = {
        let pins = Set(appleRootPins.values)
        let roots = [AppleRootCertificates.appleRootCA, AppleRootCertificates.appleRootCertificateAuthority]
            .compactMap { Data(base64Encoded: $0, options: .ignoreUnknownCharacters) }
            .map { Array($0) }
            .filter { pins.contains(Digest.sha256Hex($0)) }
        return (try? TrustAnchors(certificates: roots, signerCommonNames: appleSignerCommonNames))
            ?? TrustAnchors(roots: [], signerCommonNames: appleSignerCommonNames)
    }()

    private init(roots: [ChainCertificate], signerCommonNames: Set<String>?) {
        self.roots = roots
        self.signerCommonNames = signerCommonNames
    }

    /// SHA-256 (uppercase hex) of every root, for tests and `--help`.
    public var rootSHA256: [String] { roots.map { Digest.hex($0.sha256) } }
}
