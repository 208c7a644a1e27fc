import Foundation

/// A signing certificate listed in a profile's `DeveloperCertificates`: the X.509 facts release
/// teams ask about, and the certificate's fingerprints.
public struct DeveloperCertificate: Sendable, Equatable, Hashable, Codable {
    /// Subject CN, e.g. `Apple Development: Jane Doe (ABCDE12345)`.
    public var commonName: String?
    /// Subject OU: the team identifier.
    public var teamID: String?
    /// Subject O: the team name.
    public var organization: String?
    /// Issuer CN, e.g. `Apple Worldwide Developer Relations Certification Authority`.
    public var issuerCommonName: String?
    /// Serial number in uppercase hex, as `openssl x509 -serial` prints it.
    public var serial: String
    public var notBefore: Date
    public var notAfter: Date
    /// Uppercase hex, no separators, of the DER certificate.
    public var sha1: String
    public var sha256: String
    /// What it signs for, from Apple's extensions or its common name; nil when neither says.
    public var type: CertificateType?

    public init(commonName: String?, teamID: String?, organization: String?, issuerCommonName: String?,
                serial: String, notBefore: Date, notAfter: Date, sha1: String, sha256: String,
                type: CertificateType? = nil) {
        self.commonName = commonName
        self.teamID = teamID
        self.organization = organization
        self.issuerCommonName = issuerCommonName
        self.serial = serial
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.sha1 = sha1
        self.sha256 = sha256
        self.type = type
    }

    /// The keys of a certificate object in docs/json-schema.md.
    private enum CodingKeys: String, CodingKey {
        case commonName = "common_name"
        case teamID = "team_id"
        case organization
        case issuerCommonName = "issuer_common_name"
        case serial
        case notBefore = "not_before"
        case notAfter = "not_after"
        case sha1
        case sha256
        case type = "certificate_type"
    }
}
