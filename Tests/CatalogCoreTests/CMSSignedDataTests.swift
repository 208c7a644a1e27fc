import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

@Suite struct CMSSignedDataTests {
    typealias B = ASN1TestBytes

    static let signedDataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    static let dataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
    static let sha1Algorithm = B.sequence(B.oid([0x2B, 0x0E, 0x03, 0x02, 0x1A]), [0x05, 0x00])

    /// A definite-length DER ContentInfo; `encap` is the EncapsulatedContentInfo, `certificates` the
    /// content of the [0] certificate set (omitted when nil).
    static func signedData(encap: [UInt8], certificates: [UInt8]?, crls: Bool = false,
                           contentType: [UInt8] = signedDataOID) -> [UInt8] {
        var fields = B.integer([0x01]) + B.set(sha1Algorithm) + encap
        if let certificates { fields += B.tlv(0xA0, certificates) }
        if crls { fields += B.tlv(0xA1, []) }
        fields += B.set()
        return B.sequence(B.oid(contentType), B.explicit(0, B.tlv(0x30, fields)))
    }

    static func encap(_ content: [UInt8]) -> [UInt8] {
        B.sequence(B.oid(dataOID), B.explicit(0, B.tlv(0x04, content)))
    }

    func failure(_ bytes: [UInt8]) -> DecodeError? {
        B.caught(.malformedEnvelope) { _ = try CMSSignedData(bytes: bytes) }
    }

    // MARK: Envelopes

    @Test func opensslStreamedBER() throws {
        let signed = try CMSSignedData(bytes: B.opensslBERSignedData)
        #expect(signed.contentType == "1.2.840.113549.1.7.1")
        #expect(signed.content == Array(B.opensslContent.utf8))
        #expect(signed.certificates == [B.opensslCertificate])
    }

    @Test func definiteDERWithDuplicateCertificates() throws {
        let content = Array("<?xml version=\"1.0\"?><plist/>".utf8)
        let certificate = B.opensslCertificate
        let attributeCertificate = B.tlv(0xA1, [0x05, 0x00])
        let bytes = Self.signedData(encap: Self.encap(content),
                                    certificates: certificate + attributeCertificate + certificate,
                                    crls: true)
        let signed = try CMSSignedData(bytes: bytes)
        #expect(signed.content == content)
        #expect(signed.certificates == [certificate, certificate])
    }

    @Test func withoutCertificates() throws {
        let signed = try CMSSignedData(bytes: Self.signedData(encap: Self.encap([0x62, 0x70]), certificates: nil))
        #expect(signed.certificates.isEmpty)
        #expect(signed.content == [0x62, 0x70])
    }

    @Test func chunkedContentInDefiniteEnvelope() throws {
        let chunks = B.tlv(0x24, B.tlv(0x04, [0x3C, 0x3F]) + B.tlv(0x24, B.tlv(0x04, [0x78])) + B.tlv(0x04, []))
        let encap = B.sequence(B.oid(Self.dataOID), B.explicit(0, chunks))
        let signed = try CMSSignedData(bytes: Self.signedData(encap: encap, certificates: nil))
        #expect(signed.content == Array("<?x".utf8))
    }

    // MARK: Malformed envelopes

    @Test func missingEContentIsAnError() {
        let encap = B.sequence(B.oid(Self.dataOID))
        #expect(failure(Self.signedData(encap: encap, certificates: nil)) != nil)
    }

    @Test func otherContentTypeIsAnError() {
        let bytes = Self.signedData(encap: Self.encap([1]), certificates: nil, contentType: Self.dataOID)
        #expect(failure(bytes)?.offset == 2)
    }

    @Test func structuralErrors() {
        // eContent that is not an OCTET STRING.
        let notOctets = B.sequence(B.oid(Self.dataOID), B.explicit(0, B.tlv(0x0C, [0x41])))
        #expect(failure(Self.signedData(encap: notOctets, certificates: nil)) != nil)
        // Two elements inside [0] EXPLICIT.
        let twice = B.sequence(B.oid(Self.dataOID), B.explicit(0, B.tlv(0x04, [1]), B.tlv(0x04, [2])))
        #expect(failure(Self.signedData(encap: twice, certificates: nil)) != nil)
        // signerInfos missing.
        let noSigners = B.sequence(B.oid(Self.signedDataOID), B.explicit(0, B.sequence(
            B.integer([1]), B.set(), Self.encap([1]))))
        #expect(failure(noSigners) != nil)
        // Not a SEQUENCE at all, and a plist instead of an envelope.
        #expect(failure(B.set())?.offset == 0)
        #expect(failure(Array("<?xml version=\"1.0\"?>".utf8)) != nil)
        #expect(failure([]) != nil)
    }

    @Test func everyTruncationThrows() {
        let bytes = B.opensslBERSignedData
        for count in 0..<bytes.count {
            #expect(failure(Array(bytes[..<count])) != nil, "prefix of \(count) bytes")
        }
    }

    // MARK: Real corpus

    /// Every profile in `../shared/real-corpus` (when present): the envelope parses, the content is a
    /// plist, and its DeveloperCertificates match `expected.json`.
    @Test(.enabled(if: TestPaths.realCorpus != nil, Comment(rawValue: TestPaths.realCorpusAbsent)))
    func realCorpusProfiles() throws {
        let corpus = try #require(B.realCorpus())
        let expectedData = try Data(contentsOf: corpus.appendingPathComponent("expected.json"))
        let expected = try #require(try JSONSerialization.jsonObject(with: expectedData) as? [String: Any])
        let profiles = try #require(expected["profiles"] as? [[String: Any]])
        var expectedByUUID: [String: [[String: String]]] = [:]
        for profile in profiles {
            guard let uuid = profile["uuid"] as? String,
                  let certificates = profile["certificates"] as? [[String: String]] else { continue }
            expectedByUUID[uuid.uppercased()] = certificates
        }

        let formatter = ISO8601DateFormatter()
        var checked = 0
        let tree = corpus.appendingPathComponent("tree")
        let enumerator = try #require(FileManager.default.enumerator(at: tree, includingPropertiesForKeys: nil))
        for case let url as URL in enumerator
        where ["mobileprovision", "provisionprofile"].contains(url.pathExtension) {
            let name = url.path.replacingOccurrences(of: corpus.path + "/", with: "")
            let signed = try CMSSignedData(bytes: Array(try Data(contentsOf: url)))
            #expect(signed.contentType == "1.2.840.113549.1.7.1", "\(name)")
            #expect(signed.content.starts(with: Array("<?xml".utf8)) || signed.content.starts(with: Array("bplist".utf8)),
                    "\(name)")
            #expect(!signed.certificates.isEmpty, "\(name)")
            for der in signed.certificates { _ = try X509Certificate(der: der) }

            let plist = try PropertyListSerialization.propertyList(from: Data(signed.content), format: nil)
            let dictionary = try #require(plist as? [String: Any], "\(name)")
            let ders = try #require(dictionary["DeveloperCertificates"] as? [Data], "\(name)")
            let decoded = try ders.map { try DeveloperCertificate(der: Array($0)) }
            let uuid = try #require(dictionary["UUID"] as? String, "\(name)")
            let wanted = try #require(expectedByUUID[uuid.uppercased()], "\(name): UUID \(uuid) not in expected.json")
            let got = decoded.map {
                ["common_name": $0.commonName ?? "", "serial": $0.serial,
                 "not_after": formatter.string(from: $0.notAfter), "sha1": $0.sha1]
            }
            let order: ([String: String], [String: String]) -> Bool = { ($0["sha1"] ?? "") < ($1["sha1"] ?? "") }
            #expect(got.sorted(by: order) == wanted.sorted(by: order), "\(name)")
            for certificate in decoded {
                #expect(certificate.sha256.count == 64 && certificate.notBefore < certificate.notAfter, "\(name)")
            }
            checked += 1
        }
        #expect(checked > 0)
    }
}
