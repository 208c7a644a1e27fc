import Foundation

/// A slice's code signature, the SuperBlob `LC_CODE_SIGNATURE` points at: its CodeDirectories, the
/// entitlements it grants itself, and the certificates of its CMS signature.
///
/// The signing certificate is what the CMS blob names as its signer. Each part is decoded on its
/// own: one that cannot be read, a blob that does not hash to its special slot, a page that does
/// not hash to its code slot or a CMS signature that does not verify is a ``findings`` entry, and
/// the rest is still reported. An ad-hoc signature has CodeDirectories and no certificate.
public struct CodeSignature: Sendable, Equatable {
    /// In SuperBlob order (slot 0 first, then the alternates).
    public var codeDirectories: [CodeDirectory]
    /// The cdhash as `codesign -d` reports it: the SHA-256 CodeDirectory's hash cut to 20 bytes
    /// when there is one, else the SHA-1 one's; 40 upper-case hex digits. Nil when neither exists.
    public var cdhash: String?
    /// The XML entitlements blob (slot 5), parsed; nil when the signature has none.
    public var entitlements: PlistDictionary?
    /// The DER entitlements blob (slot 7), decoded to the same shape; nil when absent.
    public var derEntitlements: PlistDictionary?
    /// Every certificate of the CMS blob (slot 0x10000), in file order; empty when ad hoc.
    public var certificates: [DeveloperCertificate]
    /// The CMS signer's certificate: the leaf of the signing identity.
    public var signingCertificate: DeveloperCertificate?
    /// The CMS signer's signingTime attribute, when present.
    public var signingTime: Date?
    /// What is wrong with the signature itself, in the order found (empty: every part read and
    /// every hash checked matched).
    public var findings: [SignatureFinding] = []

    public init(codeDirectories: [CodeDirectory], cdhash: String?, entitlements: PlistDictionary?,
                derEntitlements: PlistDictionary?, certificates: [DeveloperCertificate],
                signingCertificate: DeveloperCertificate?, signingTime: Date?) {
        self.codeDirectories = codeDirectories
        self.cdhash = cdhash
        self.entitlements = entitlements
        self.derEntitlements = derEntitlements
        self.certificates = certificates
        self.signingCertificate = signingCertificate
        self.signingTime = signingTime
    }

    /// The primary CodeDirectory (slot 0).
    public var codeDirectory: CodeDirectory? { codeDirectories.first }

    /// The signing identifier, usually the bundle id.
    public var identifier: String? { codeDirectory?.identifier }

    /// The team the CodeDirectory names, else the signing certificate's (its subject OU).
    public var teamID: String? { codeDirectories.lazy.compactMap(\.teamID).first ?? signingCertificate?.teamID }

    /// Signed without a certificate: simulator builds, `ld`'s linker signature, `codesign -s -`. A
    /// CMS blob that could not be read does not make a signature ad hoc: its signer is unknown.
    public var isAdHoc: Bool {
        codeDirectories.contains(where: \.isAdHoc)
            || (signingCertificate == nil && !findings.contains { $0.code == .signatureUnreadable })
    }

    /// The entitlements the binary claims: the XML blob, else the DER one.
    public var claimedEntitlements: PlistDictionary? { entitlements ?? derEntitlements }
}
