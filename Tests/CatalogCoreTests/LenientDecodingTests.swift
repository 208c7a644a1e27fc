import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

/// Issue 9 §2: a bad part of a file does not lose the rest. Fixtures under `Fixtures/lenient/` (made
/// by `make_profiles.py` and `make_bundles.py`); `FixtureConformanceTests` also checks them against
/// `expected.json`, which openssl and Python computed.
@Suite struct LenientDecodingTests {
    typealias B = ASN1TestBytes

    static func lenient(_ name: String) -> String { TestPaths.fixtures + "/lenient/" + name }

    static func profile(at path: String) throws -> ProvisioningProfile {
        guard case .profile(let profile) = try FileDecoder.decode(path: path) else {
            throw DecodeError(.unrecognized, "not a profile", path: path)
        }
        return profile
    }

    /// `profiles/bare-plist.mobileprovision` with its DeveloperCertificates array holding `certificates`.
    static func barePlist(certificates: String) throws -> [UInt8] {
        var xml = try String(contentsOfFile: TestPaths.fixtures + "/profiles/bare-plist.mobileprovision", encoding: .utf8)
        let key = try #require(xml.range(of: "<key>DeveloperCertificates</key>"))
        let open = try #require(xml.range(of: "<array>", range: key.upperBound..<xml.endIndex))
        let close = try #require(xml.range(of: "</array>", range: open.upperBound..<xml.endIndex))
        xml.replaceSubrange(open.lowerBound..<close.upperBound, with: "<array>\(certificates)</array>")
        return Array(xml.utf8)
    }

    static let emptySHA1 = "DA39A3EE5E6B4B0D3255BFEF95601890AFD80709"

    // MARK: Undecodable DeveloperCertificates entries

    @Test func undecodableCertificatesKeepTheProfile() throws {
        let profile = try Self.profile(at: Self.lenient("undecodable-certificates.mobileprovision"))
        #expect(profile.name == "Example Undecodable Certificates")
        #expect(profile.certificates.map(\.commonName) == ["Apple Development: John Roe (FGHIJ67890)"])
        #expect(profile.undecodableCertificates.map(\.index) == [0, 2])
        let empty = try #require(profile.undecodableCertificates.first)
        #expect(empty.size == 0 && empty.sha1 == Self.emptySHA1 && empty.reason == "empty data")
        let pem = Array("-----BEGIN CERTIFICATE-----\nnot DER\n".utf8)
        let notDER = try #require(profile.undecodableCertificates.last)
        #expect(notDER.size == pem.count && notDER.sha1 == Digest.sha1Hex(pem) && notDER.sha256 == Digest.sha256Hex(pem))
        #expect(!notDER.reason.isEmpty && notDER.reason != "empty data")
        // Only the decodable certificate's notAfter counts: 2026-05-15T12:00:00Z, before the profile's.
        #expect(ISO8601.format(profile.effectiveExpirationDate) == "2026-05-15T12:00:00Z")
        #expect(profile.effectiveExpiryCause == .certificate)
        #expect(profile.warnings.count == 2)
        #expect(profile.warnings.allSatisfy { $0.contains("undecodable") })

        let json = profile.json
        guard case .array(let listed)? = json["undecodable_certificates"] else {
            Issue.record("no undecodable_certificates array")
            return
        }
        #expect(listed.count == 2)
        #expect(listed.first?["sha1"] == .string(Self.emptySHA1))
        #expect(listed.first?["reason"] == .string("empty data"))
    }

    /// With every entry undecodable, the profile's own ExpirationDate decides.
    @Test func onlyUndecodableCertificatesLeaveTheProfileExpiry() throws {
        let profile = try ProfileDecoder.decode(try Self.barePlist(certificates: "<data/><data>AAECAw==</data>"))
        #expect(profile.certificates.isEmpty)
        #expect(profile.undecodableCertificates.map(\.size) == [0, 4])
        #expect(profile.effectiveExpirationDate == profile.expirationDate)
        #expect(profile.effectiveExpiryCause == .profile)
    }

    /// A DeveloperCertificates entry that is not data at all is still a malformed profile.
    @Test func aNonDataEntryIsStillAnError() throws {
        let bytes = try Self.barePlist(certificates: "<string>x</string>")
        #expect(throws: DecodeError.self) { try ProfileDecoder.decode(bytes) }
    }

    // MARK: Trailing bytes after the envelope

    @Test func aTrailingNewlineIsAcceptedAndNoted() throws {
        let profile = try Self.profile(at: Self.lenient("trailing-newline.mobileprovision"))
        #expect(profile.envelopeTrailingBytes == 1)
        #expect(profile.warnings == ["1 trailing byte after the CMS envelope ignored"])
        #expect(profile.json["envelope_trailing_bytes"] == .int(1))
        // The file's hash is of the bytes as found, newline included.
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.lenient("trailing-newline.mobileprovision"))))
        #expect(profile.sha256 == Digest.sha256Hex(bytes))
        #expect(try Self.profile(at: TestPaths.fixtures + "/profiles/ios-adhoc.mobileprovision").envelopeTrailingBytes == 0)
    }

    @Test func trailingBytesUpToTheLimit() throws {
        let envelope = B.opensslBERSignedData
        let limit = CMSSignedData.maximumTrailingBytes
        for extra in [[0x0A], [0x0D, 0x0A], [UInt8](repeating: 0, count: limit)] as [[UInt8]] {
            let signed = try CMSSignedData(bytes: envelope + extra)
            #expect(signed.trailingBytes == extra.count)
            #expect(signed.content == Array(B.opensslContent.utf8))
        }
        let tooMany = B.caught(.malformedEnvelope) {
            _ = try CMSSignedData(bytes: envelope + [UInt8](repeating: 0x0A, count: limit + 1))
        }
        #expect(tooMany?.offset == envelope.count)
        #expect(tooMany?.reason.contains("\(limit + 1) trailing bytes") == true)
        // Certificates keep the strict rule.
        #expect(B.caught(.malformedCertificate) { _ = try X509Certificate(der: B.opensslCertificate + [0x0A]) } != nil)
    }

    /// A truncated envelope stays an error, newline or not.
    @Test func aTruncatedEnvelopeWithANewlineThrows() {
        let envelope = B.opensslBERSignedData
        for count in 1..<envelope.count {
            let bytes = Array(envelope[..<count]) + [0x0A]
            #expect(B.caught(.malformedEnvelope) { _ = try CMSSignedData(bytes: bytes) } != nil, "prefix of \(count) bytes")
        }
    }

    // MARK: Finder-compressed IPAs

    @Test func aFinderCompressedIPAIsRead() throws {
        let path = Self.lenient("FinderCompressed.ipa")
        guard case .build(let artifact) = try FileDecoder.decode(path: path) else {
            Issue.record("not a build")
            return
        }
        #expect(artifact.sourceKind == .ipa)
        #expect(artifact.appPath == "FinderCompressed/Payload/Example.app")
        #expect(artifact.info.bundleID == "com.example.finder")
        #expect(artifact.profile?.name == (try Self.profile(at: TestPaths.fixtures + "/profiles/ios-adhoc.mobileprovision")).name)
        #expect(artifact.profileError == nil)
    }

    static func entries(_ names: [String]) -> [ZipEntry] {
        names.map { ZipEntry(name: $0, method: 0, compressedSize: 0, uncompressedSize: 0, crc32: 0, localHeaderOffset: 0) }
    }

    @Test func appFolderChoice() {
        // A top-level Payload/ wins over a nested one.
        #expect(IPAReader.appPrefix(in: Self.entries(["Top/Payload/A.app/Info.plist", "Payload/Long.app/Info.plist"]))
                == "Payload/Long.app/")
        // One level down only; the shortest app, ties by name.
        #expect(IPAReader.appPrefix(in: Self.entries(["X/Payload/Bb.app/Info.plist", "X/Payload/Aa.app/Info.plist",
                                                       "X/Payload/Aa.app/PlugIns/W.appex/Info.plist"]))
                == "X/Payload/Aa.app/")
        #expect(IPAReader.appPrefix(in: Self.entries(["X/Y/Payload/A.app/Info.plist"])) == nil)
        // __MACOSX/ AppleDouble entries never count, even where they would look like an app.
        #expect(IPAReader.appPrefix(in: Self.entries(["__MACOSX/Payload/A.app/._Info.plist",
                                                       "Name/Payload/Example.app/Info.plist"]))
                == "Name/Payload/Example.app/")
        #expect(IPAReader.appPrefix(in: Self.entries(["__MACOSX/Payload/A.app/._Info.plist"])) == nil)
        #expect(IPAReader.appPrefix(in: Self.entries(["Payload/.app/x", "Payload/A.app"])) == nil)
    }
}
