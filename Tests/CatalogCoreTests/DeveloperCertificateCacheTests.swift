import Foundation
import Testing
@testable import CatalogCore

/// Issue 15: a developer certificate listed by many profiles is decoded once; what the cache hands
/// back is exactly what decoding gives, for each of many certificates, and past its bound; a DER that
/// does not decode fails every time.
@Suite struct DeveloperCertificateCacheTests {
    typealias B = ASN1TestBytes

    private func der(_ serial: Int) -> [UInt8] {
        X509CertificateTests.certificate(serial: [0x01, UInt8(serial >> 8 & 0xFF), UInt8(serial & 0xFF)],
                                         subject: B.sequence(X509CertificateTests.attribute(3, 0x0C, Array("Developer \(serial)".utf8))))
    }

    @Test func theCacheGivesWhatDecodingGives() throws {
        let cache = DeveloperCertificateCache()
        let ders = [B.opensslCertificate] + (0..<20).map(der)
        for _ in 0..<2 {
            for der in ders {
                #expect(try cache.certificate(der) == DeveloperCertificate(der: der))
            }
        }
        #expect(try cache.certificate(der(3)).commonName == "Developer 3")
        #expect(try cache.certificate(der(3)).sha1 != cache.certificate(der(4)).sha1)
    }

    @Test func pastItsBoundTheCacheStartsAgainAndStaysRight() throws {
        let cache = DeveloperCertificateCache()
        for serial in 0...(DeveloperCertificateCache.limit + 10) {
            #expect(try cache.certificate(der(serial)).commonName == "Developer \(serial)")
        }
        #expect(try cache.certificate(der(1)).commonName == "Developer 1")
    }

    @Test func aDERThatDoesNotDecodeFailsEachTime() {
        let cache = DeveloperCertificateCache()
        for _ in 0..<2 {
            #expect(throws: DecodeError.self) { try cache.certificate([0x30, 0x03, 0x02, 0x01, 0x05]) }
        }
    }
}
