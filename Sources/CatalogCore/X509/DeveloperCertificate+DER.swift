extension DeveloperCertificate {
    /// Parses the DER of a profile's `DeveloperCertificates` entry and fingerprints it (SHA-1 and
    /// SHA-256 of the DER bytes, uppercase hex, no colons).
    /// Throws `DecodeError` of kind `.malformedCertificate`.
    package init(der: [UInt8]) throws {
        let certificate = try X509Certificate(der: der)
        self.init(commonName: certificate.subjectCommonName,
                  teamID: certificate.subjectOrganizationalUnit,
                  organization: certificate.subjectOrganization,
                  issuerCommonName: certificate.issuerCommonName,
                  serial: certificate.serialHex,
                  notBefore: certificate.notBefore,
                  notAfter: certificate.notAfter,
                  sha1: Digest.sha1Hex(der),
                  sha256: Digest.sha256Hex(der),
                  type: CertificateType.of(extensions: certificate.appleExtensionNumbers, commonName: certificate.subjectCommonName))
    }
}
