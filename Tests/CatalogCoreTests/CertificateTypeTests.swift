import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogCore

/// A certificate's type comes from Apple's extensions (1.2.840.113635.100.6.1.N), else from its
/// common name's prefix.
@Suite struct CertificateTypeTests {
    typealias B = ASN1TestBytes

    /// A test certificate whose extensions carry Apple's marks `numbers` (and a key usage), or the
    /// raw extensions block `raw`.
    static func certificate(commonName: String, appleMarks numbers: [UInt8], extensions raw: [UInt8]? = nil) -> [UInt8] {
        let subject = B.sequence(X509CertificateTests.attribute(3, 0x0C, Array(commonName.utf8)))
        let marks = numbers.map { B.sequence(B.oid(X509Certificate.appleExtensionArc + [$0]), B.tlv(0x01, [0xFF]), B.tlv(0x04, [0x05, 0x00])) }
        let keyUsage = B.sequence(B.oid([0x55, 0x1D, 0x0F]), B.tlv(0x01, [0xFF]), B.tlv(0x04, [0x03, 0x02, 0x07, 0x80]))
        return X509CertificateTests.certificate(subject: subject,
                                                extensions: raw ?? B.explicit(3, B.sequence(([keyUsage] + marks).flatMap { $0 })))
    }

    @Test func extensionsDecideTheType() {
        let cases: [([UInt8], CertificateType?)] = [
            ([2, 12], .appleDevelopment), ([4, 7], .appleDistribution), ([2], .iPhoneDeveloper),
            ([4], .iPhoneDistribution), ([12], .macDeveloper), ([7], .macAppDistribution),
            ([8], .macInstallerDistribution), ([13, 33], .developerIDApplication), ([14], .developerIDInstaller), ([], nil),
        ]
        for (marks, type) in cases { #expect(CertificateType.fromExtensions(marks) == type, "\(marks)") }
    }

    @Test func aCertificatesExtensionsAreReadAndWinOverItsName() throws {
        let der = Self.certificate(commonName: "iPhone Developer: Jane Doe (ABCDE12345)", appleMarks: [2, 12])
        let parsed = try X509Certificate(der: der)
        #expect(parsed.appleExtensionNumbers == [2, 12])
        #expect(try DeveloperCertificate(der: der).type == .appleDevelopment)
        // No marks: the common name says.
        let named = Self.certificate(commonName: "Developer ID Installer: Example Corp (TEAM123456)", appleMarks: [])
        #expect(try DeveloperCertificate(der: named).type == .developerIDInstaller)
        let unknown = Self.certificate(commonName: "Someone Else", appleMarks: [])
        #expect(try DeveloperCertificate(der: unknown).type == nil)
    }

    @Test func oddExtensionsDoNotCostTheCertificate() throws {
        // An Extension missing its extnValue: not a valid block, but only a hint for the type.
        let broken = B.explicit(3, B.sequence(B.sequence(B.oid(X509Certificate.appleExtensionArc + [2]))))
        let der = Self.certificate(commonName: "Apple Distribution: Example Corp (TEAM123456)", appleMarks: [], extensions: broken)
        let certificate = try DeveloperCertificate(der: der)
        #expect(certificate.type == .appleDistribution)
        #expect(certificate.commonName == "Apple Distribution: Example Corp (TEAM123456)")
    }

    @Test func fixtureCertificatesFallBackToTheirCommonNames() throws {
        let expected: [String: CertificateType] = [
            "dev_jane": .appleDevelopment, "dist": .appleDistribution, "devid": .developerIDApplication,
            "mas": .macAppDistribution, "ent_dist": .iPhoneDistribution, "dev_2013": .iPhoneDeveloper,
        ]
        for (name, type) in expected {
            let der = try Array(Data(contentsOf: URL(fileURLWithPath: TestPaths.fixtures + "/certs/\(name).der")))
            #expect(try DeveloperCertificate(der: der).type == type, "\(name)")
        }
    }

    @Test(.enabled(if: TestPaths.realCorpus != nil, "needs ../shared/real-corpus beside the checkout"))
    func everyRealCertificateHasTheTypeItsNameSays() throws {
        let corpus = try #require(TestPaths.realCorpus)
        var checked = 0
        let files = FileManager.default.enumerator(atPath: corpus + "/tree")?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".mobileprovision") || file.hasSuffix(".provisionprofile") {
            guard case .profile(let profile)? = try? FileDecoder.decode(path: corpus + "/tree/" + file) else { continue }
            for certificate in profile.certificates {
                let named = CertificateType.fromCommonName(certificate.commonName)
                #expect(certificate.type != nil && certificate.type == named, "\(file): \(certificate.commonName ?? "")")
                checked += 1
            }
        }
        #expect(checked > 20)
    }
}
