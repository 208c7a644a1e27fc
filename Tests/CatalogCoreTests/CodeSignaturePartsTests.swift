import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

/// A code signature read part by part (issue 51 §1, §2, §4), on `Fixtures/codesign/macho/thin-arm64`
/// changed byte by byte in memory: a part that cannot be read is `signature-unreadable` and the rest
/// is still reported; a page, a bound blob or the CMS signature that does not match is its own code.
@Suite struct CodeSignaturePartsTests {
    static let thin = TestPaths.fixtures + "/codesign/macho/thin-arm64"
    static var testRoot: TrustAnchors {
        get throws { try TrustAnchors(pem: String(contentsOfFile: TestPaths.fixtures + "/certs/ca.pem", encoding: .utf8)) }
    }

    /// The binary's bytes and, for each SuperBlob slot, where its blob starts in the file.
    static func thinBinary() throws -> (bytes: [UInt8], blobs: [UInt32: Int]) {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: thin)))
        let slice = try #require(try MachOFile(bytes: bytes, path: thin, trust: nil).slices.first)
        let start = Int(try #require(slice.codeSignatureOffset))
        let superBlob = ByteReader(bytes[start...])
        var blobs: [UInt32: Int] = [:]
        for index in 0..<Int(try superBlob.uint32(at: 8, .bigEndian)) {
            let slot = try superBlob.uint32(at: 12 + index * 8, .bigEndian)
            blobs[slot] = start + Int(try superBlob.uint32(at: 16 + index * 8, .bigEndian))
        }
        return (bytes, blobs)
    }

    static func findings(_ bytes: [UInt8], trust: TrustAnchors?) throws -> (CodeSignature, [SigningProblem.Code]) {
        let slice = try #require(try MachOFile(bytes: bytes, path: thin, trust: trust).slices.first)
        let signature = try #require(slice.codeSignature, "\(String(describing: slice.codeSignatureError))")
        return (signature, signature.findings.map(\.code))
    }

    @Test func theFixtureIsIntactAndChainsToTheTestRoot() throws {
        let (bytes, _) = try Self.thinBinary()
        let (signature, codes) = try Self.findings(bytes, trust: try Self.testRoot)
        #expect(codes.isEmpty, "\(signature.findings)")
        #expect(try Self.findings(bytes, trust: .apple).1 == [.certificateNotApple])
    }

    @Test func aFlippedCodeByteNamesItsPage() throws {
        var (bytes, _) = try Self.thinBinary()
        bytes[5000] ^= 0x01
        let (signature, codes) = try Self.findings(bytes, trust: try Self.testRoot)
        #expect(codes == [.codeModified])
        let message = signature.findings.first?.message ?? ""
        #expect(message.contains("page 1 ") && message.contains("arm64"), "\(message)")
        #expect(message.contains("sha1") && message.contains("sha256"), "both CodeDirectories see it: \(message)")
        #expect(signature.cdhash != nil && signature.signingCertificate != nil)
    }

    @Test func unreadableDEREntitlementsAreAProblemAndTheRestIsStillRead() throws {
        var (bytes, blobs) = try Self.thinBinary()
        let der = try #require(blobs[7])
        bytes[der + 8] = 0x05   // the DER content's first tag becomes NULL with a bogus length
        bytes[der + 9] = 0xFF
        let (signature, codes) = try Self.findings(bytes, trust: try Self.testRoot)
        #expect(codes.contains(.signatureUnreadable))
        #expect(codes.contains(.entitlementsModified), "the blob no longer hashes to slot -7")
        #expect(signature.findings.contains { $0.code == .signatureUnreadable && $0.message.hasPrefix("DER entitlements:") })
        #expect(signature.derEntitlements == nil)
        #expect(signature.identifier == "com.example.thin" && signature.teamID == "TEAM123456")
        #expect(signature.cdhash != nil && signature.signingCertificate?.commonName == "Apple Development: Jane Doe (ABCDE12345)")
        #expect(signature.entitlements?["get-task-allow"] == .bool(true))
    }

    @Test func aChangedEntitlementsBlobIsModified() throws {
        var (bytes, blobs) = try Self.thinBinary()
        let xml = try #require(blobs[5])
        // Inside the XML text: "<true/>" becomes "<true/ " → unreadable, and the hash differs.
        let text = Array("<true/>".utf8)
        let at = try #require((xml..<xml + 2000).first { Array(bytes[$0..<$0 + text.count]) == text })
        bytes[at + 1] = UInt8(ascii: "T")
        let codes = try Self.findings(bytes, trust: try Self.testRoot).1
        #expect(codes.contains(.entitlementsModified))
    }

    @Test func aFlippedCMSSignatureIsInvalid() throws {
        var (bytes, blobs) = try Self.thinBinary()
        let cms = try #require(blobs[0x10000])
        let length = Int(try ByteReader(bytes[cms...]).uint32(at: 4, .bigEndian))
        // The RSA signature is the last element of the SignerInfo; its last byte ends the blob's DER.
        let end = try #require((cms..<cms + length).last { bytes[$0] != 0 })
        bytes[end] ^= 0xFF
        let codes = try Self.findings(bytes, trust: try Self.testRoot).1
        #expect(codes == [.signatureInvalid], "\(codes)")
    }

    @Test func bareSetDEREntitlementsAreRead() throws {
        func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
            content.count < 0x80 ? [tag, UInt8(content.count)] + content : [tag, 0x81, UInt8(content.count)] + content
        }
        func utf8(_ text: String) -> [UInt8] { tlv(0x0C, Array(text.utf8)) }
        func pair(_ key: String, _ value: [UInt8]) -> [UInt8] { tlv(0x30, utf8(key) + value) }
        // Keys deliberately unsorted, as a re-signing tool writes them.
        let bare = tlv(0x31, pair("get-task-allow", tlv(0x01, [0xFF]))
                       + pair("application-identifier", utf8("TEAM123456.com.example.app"))
                       + pair("keychain-access-groups", tlv(0x30, utf8("TEAM123456.com.example.app") + utf8("TEAM123456.shared")))
                       + pair("com.example.nested", tlv(0x31, pair("depth", tlv(0x02, [0x02])))))
        let entitlements = try DERProfilePayload.entitlements(bare, errorKind: .malformedMachO)
        #expect(entitlements["get-task-allow"] == .bool(true))
        #expect(entitlements["application-identifier"] == .string("TEAM123456.com.example.app"))
        #expect(entitlements["keychain-access-groups"] == .array([.string("TEAM123456.com.example.app"), .string("TEAM123456.shared")]))
        #expect(entitlements["com.example.nested"] == .dictionary(PlistDictionary([("depth", .integer(2))])))
        // The wrapped form still reads the same way.
        let wrapped = tlv(0x70, tlv(0x02, [0x01]) + tlv(0xB0, Array(bare.dropFirst(3))))
        #expect(DERProfileCheck.same(.dictionary(try DERProfilePayload.entitlements(wrapped, errorKind: .malformedMachO)),
                                     .dictionary(entitlements)))
    }
}
