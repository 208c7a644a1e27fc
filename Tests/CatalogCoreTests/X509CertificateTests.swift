import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

@Suite struct X509CertificateTests {
    typealias B = ASN1TestBytes

    static let ecdsaSHA256 = B.sequence(B.oid([0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]))

    static func attribute(_ type: UInt8, _ tag: UInt8, _ value: [UInt8]) -> [UInt8] {
        B.set(B.sequence(B.oid([0x55, 0x04, type]), B.tlv(tag, value)))
    }

    static func utcTime(_ text: String) -> [UInt8] { B.tlv(0x17, Array(text.utf8)) }
    static func generalizedTime(_ text: String) -> [UInt8] { B.tlv(0x18, Array(text.utf8)) }

    /// A certificate with dummy key and signature (nothing is verified).
    static func certificate(serial: [UInt8] = [0x05], version: Bool = true,
                            issuer: [UInt8] = B.sequence(attribute(3, 0x13, Array("Test CA".utf8))),
                            subject: [UInt8],
                            notBefore: [UInt8] = utcTime("210802130506Z"),
                            notAfter: [UInt8] = utcTime("211122131059Z"),
                            extensions: [UInt8] = B.explicit(3, B.sequence())) -> [UInt8] {
        var tbs: [UInt8] = version ? B.explicit(0, B.integer([0x02])) : []
        tbs += B.integer(serial) + ecdsaSHA256 + issuer + B.sequence(notBefore, notAfter) + subject
        tbs += B.sequence(B.sequence(B.oid([0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01])), B.tlv(0x03, [0x00, 0x04]))
        tbs += extensions
        return B.sequence(B.tlv(0x30, tbs), ecdsaSHA256, B.tlv(0x03, [0x00, 0x01]))
    }

    static func date(_ iso: String) -> Date? { ISO8601DateFormatter().date(from: iso) }

    func failure(_ der: [UInt8]) -> DecodeError? {
        B.caught(.malformedCertificate) { _ = try X509Certificate(der: der) }
    }

    // MARK: openssl

    @Test func opensslCertificate() throws {
        let certificate = try X509Certificate(der: B.opensslCertificate)
        #expect(certificate.subjectCommonName == "Signer")
        #expect(certificate.issuerCommonName == "Signer")
        #expect(certificate.subjectOrganization == nil && certificate.subjectOrganizationalUnit == nil)
        #expect(certificate.serialHex == "05")
        #expect(certificate.notBefore == Self.date("2026-11-29T16:38:15Z"))
        #expect(certificate.notAfter == Self.date("2026-11-30T16:38:15Z"))

        let developer = try DeveloperCertificate(der: B.opensslCertificate)
        #expect(developer.sha1 == "13A88577FD8696742769A2032DC29A7BCB3F4582")
        #expect(developer.sha256 == Digest.sha256Hex(B.opensslCertificate))
        #expect(developer.commonName == "Signer" && developer.serial == "05")
    }

    // MARK: Names

    @Test func nameStringTypes() throws {
        let subject = B.sequence(
            Self.attribute(3, 0x1E, [0x00, 0x5A, 0x00, 0x6F, 0x00, 0xEB, 0x00, 0x20, 0x73, 0x8B,
                                     0xD8, 0x3D, 0xDE, 0x00]),             // BMPString "Zoë 王😀"
            Self.attribute(11, 0x13, Array("ABCDE12345".utf8)),           // PrintableString
            Self.attribute(10, 0x14, [0x4C, 0xE9, 0x61, 0x20, 0x53, 0x41])) // T61String Latin-1 "Léa SA"
        let certificate = try X509Certificate(der: Self.certificate(subject: subject))
        #expect(certificate.subjectCommonName == "Zoë 王😀")
        #expect(certificate.subjectOrganizationalUnit == "ABCDE12345")
        #expect(certificate.subjectOrganization == "Léa SA")
        #expect(certificate.issuerCommonName == "Test CA")
    }

    @Test func utf8UniversalAndLongNames() throws {
        let long = "iPhone Distribution: Beijing TianRuiDiAn Network Technology Co,Ltd. 小白 金 (9AY3Z7X395)"
        #expect(long.utf8.count > 64)
        let universal: [UInt8] = [0, 0, 0, 0x41, 0, 0x01, 0xF6, 0x00, 0, 0, 0x00, 0xE9]   // "A😀é"
        let subject = B.sequence(
            B.set(B.sequence(B.oid([0x55, 0x04, 0x06]), B.tlv(0x13, Array("US".utf8)))),  // C is ignored
            Self.attribute(3, 0x0C, Array(long.utf8)),
            Self.attribute(3, 0x0C, Array("second CN".utf8)),
            Self.attribute(10, 0x1C, universal),
            Self.attribute(11, 0x16, Array("ia5@example.com".utf8)))
        let certificate = try X509Certificate(der: Self.certificate(subject: subject))
        #expect(certificate.subjectCommonName == long)   // the first CN wins
        #expect(certificate.subjectOrganization == "A😀é")
        #expect(certificate.subjectOrganizationalUnit == "ia5@example.com")
    }

    @Test func multiValuedRDNAndEmptyName() throws {
        let subject = B.sequence(B.set(
            B.sequence(B.oid([0x55, 0x04, 0x03]), B.tlv(0x0C, Array("cn".utf8))),
            B.sequence(B.oid([0x55, 0x04, 0x0A]), B.tlv(0x0C, Array("org".utf8)))))
        let certificate = try X509Certificate(der: Self.certificate(issuer: B.sequence(), subject: subject))
        #expect(certificate.subjectCommonName == "cn" && certificate.subjectOrganization == "org")
        #expect(certificate.issuerCommonName == nil)
    }

    @Test func badStringsAreErrors() {
        let oddBMP = B.sequence(Self.attribute(3, 0x1E, [0x00, 0x41, 0x00]))
        #expect(failure(Self.certificate(subject: oddBMP)) != nil)
        let badUniversal = B.sequence(Self.attribute(3, 0x1C, [0, 0, 0x41]))
        #expect(failure(Self.certificate(subject: badUniversal)) != nil)
    }

    // MARK: Serial numbers (as `openssl x509 -noout -serial` prints them)

    @Test func serialsMatchOpenSSL() throws {
        let subject = B.sequence(Self.attribute(3, 0x0C, Array("s".utf8)))
        func serial(_ octets: [UInt8]) throws -> String {
            try X509Certificate(der: Self.certificate(serial: octets, subject: subject)).serialHex
        }
        #expect(try serial([0x00]) == "00")
        #expect(try serial([0x7F]) == "7F")
        #expect(try serial([0x00, 0x80]) == "80")
        #expect(try serial([0x00, 0xFF]) == "FF")
        #expect(try serial([0x01, 0x7E, 0xB7, 0x62, 0xA8, 0x75, 0xAC, 0x47]) == "017EB762A875AC47")
        #expect(try serial([0xFF]) == "-01")
        #expect(try serial([0x80]) == "-80")
        #expect(try serial([0xFF, 0x00]) == "-0100")
        let twenty: [UInt8] = [0x00, 0x80] + [UInt8](repeating: 0, count: 18) + [0x01]
        #expect(try serial(twenty) == "80" + String(repeating: "00", count: 18) + "01")
        // openssl refuses to load certificates whose serial has redundant leading octets.
        #expect(failure(Self.certificate(serial: [0x00, 0x7F], subject: subject)) != nil)
        #expect(failure(Self.certificate(serial: [0xFF, 0x80], subject: subject)) != nil)
        #expect(failure(Self.certificate(serial: [], subject: subject)) != nil)
    }

    // MARK: Validity

    @Test func utcTimeCenturyWindow() throws {
        let subject = B.sequence(Self.attribute(3, 0x0C, Array("t".utf8)))
        let certificate = try X509Certificate(der: Self.certificate(
            version: false, subject: subject,
            notBefore: Self.utcTime("500101000000Z"), notAfter: Self.utcTime("491231235959Z")))
        #expect(certificate.notBefore == Self.date("1950-01-01T00:00:00Z"))
        #expect(certificate.notAfter == Self.date("2049-12-31T23:59:59Z"))
    }

    @Test func generalizedTimeAndOffsets() throws {
        let subject = B.sequence(Self.attribute(3, 0x0C, Array("t".utf8)))
        let certificate = try X509Certificate(der: Self.certificate(
            subject: subject,
            notBefore: Self.utcTime("2402291230+0130"), notAfter: Self.generalizedTime("20510101000000.5Z")))
        #expect(certificate.notBefore == Self.date("2024-02-29T11:00:00Z"))
        #expect(certificate.notAfter == Self.date("2051-01-01T00:00:00Z")?.addingTimeInterval(0.5))
        #expect(X509Certificate.parseTimeText(Array("99991231235959Z".utf8), isUTC: false)
                == Self.date("9999-12-31T23:59:59Z")?.timeIntervalSince1970)
    }

    @Test func invalidTimesAreErrors() {
        let subject = B.sequence(Self.attribute(3, 0x0C, Array("t".utf8)))
        for text in ["230230000000Z", "231301000000Z", "2301010000", "230101240000Z", "23010100000Z",
                     "2301010000ZZ", "2x0101000000Z", ""] {
            #expect(failure(Self.certificate(subject: subject, notBefore: Self.utcTime(text))) != nil, "\(text)")
        }
        #expect(failure(Self.certificate(subject: subject, notAfter: Self.generalizedTime("20510101000000."))) != nil)
        #expect(failure(Self.certificate(subject: subject, notAfter: B.integer([1]))) != nil)
    }

    // MARK: Malformed certificates

    @Test func structuralErrors() {
        let subject = B.sequence(Self.attribute(3, 0x0C, Array("t".utf8)))
        let good = Self.certificate(subject: subject)
        #expect(failure(good + [0x00])?.offset == good.count)
        #expect(failure(B.sequence(B.integer([1])))?.offset != nil)
        #expect(failure(B.set()) != nil)
        #expect(failure([]) != nil)
        // A subject that is an RDN SET rather than a SEQUENCE OF.
        #expect(failure(Self.certificate(subject: Self.attribute(3, 0x0C, [0x41]))) != nil)
    }

    @Test func everyTruncationThrows() {
        let der = B.opensslCertificate
        for count in 0..<der.count {
            #expect(failure(Array(der[..<count])) != nil, "prefix of \(count) bytes")
        }
    }

    @Test func mutationsNeverCrash() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func random(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<3000 {
            var der = B.opensslCertificate
            for _ in 0...random(3) { der[random(der.count)] = UInt8(random(256)) }
            do {
                _ = try X509Certificate(der: der)
            } catch let error as DecodeError {
                #expect(error.kind == .malformedCertificate)
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
    }

    // MARK: Real corpus

    /// Every certificate carried in the real profiles' envelopes (the signing chains) parses.
    @Test(.enabled(if: TestPaths.realCorpus != nil, Comment(rawValue: TestPaths.realCorpusAbsent)))
    func realCorpusChainCertificates() throws {
        let corpus = try #require(B.realCorpus())
        let tree = corpus.appendingPathComponent("tree")
        let enumerator = try #require(FileManager.default.enumerator(at: tree, includingPropertiesForKeys: nil))
        var count = 0
        for case let url as URL in enumerator
        where ["mobileprovision", "provisionprofile"].contains(url.pathExtension) {
            for der in try CMSSignedData(bytes: Array(try Data(contentsOf: url))).certificates {
                let certificate = try X509Certificate(der: der)
                #expect(certificate.issuerCommonName != nil && certificate.subjectCommonName != nil)
                #expect(certificate.notBefore < certificate.notAfter)
                count += 1
            }
        }
        #expect(count > 0)
    }
}
