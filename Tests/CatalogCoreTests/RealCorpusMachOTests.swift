import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

/// The real signed IPA in `../shared/real-corpus` (`mohamadrezakoohkan__Resigner/app.ipa`, signed by
/// Apple's tools): its executable's facts checked against what the corpus's `expected.json` says of
/// the build and its embedded profile, and its cdhash against the hash the CMS signature itself
/// signed. Skipped, visibly, when the corpus is absent.
@Suite(.enabled(if: TestPaths.realCorpus != nil, "needs ../shared/real-corpus beside the checkout"))
struct RealCorpusMachOTests {
    static let ipa = "tree/mohamadrezakoohkan__Resigner/app.ipa"

    static func corpus() throws -> (root: String, expected: [String: Any]) {
        let root = try #require(TestPaths.realCorpus)
        return (root, try TestPaths.expected(at: root + "/expected.json"))
    }

    @Test func theSignedIPAsExecutable() throws {
        let (root, expected) = try Self.corpus()
        let builds = expected["builds"] as? [[String: Any]] ?? []
        let build = try #require(builds.first { $0["path"] as? String == Self.ipa })
        let profiles = expected["profiles"] as? [[String: Any]] ?? []
        let profile = try #require(profiles.first { $0["uuid"] as? String == build["profile_uuid"] as? String })

        let artifact = try BuildArtifact(contentsOf: URL(fileURLWithPath: root + "/" + Self.ipa), trust: nil)
        #expect(artifact.executables.count == 1)
        let main = try #require(artifact.executables.first)
        #expect(main.role == .main)
        #expect(main.path == "Payload/TLDR.app/TLDR")
        #expect(main.bundleID == build["bundle_id"] as? String)
        let slice = try #require(main.binary?.slices.first)
        #expect(main.binary?.layout == .thin)
        #expect(slice.architecture == "arm64")
        // As `llvm-objdump --macho --private-headers` prints them.
        #expect(slice.uuid == "6D254A2F-0A5E-3FAF-8E04-99D099B16B6C")
        #expect(slice.platform == .iOS && slice.minimumOS == "13.2" && slice.sdk == "13.2")

        let signature = try #require(main.codeSignature)
        #expect(signature.identifier == build["bundle_id"] as? String)
        #expect(signature.teamID == profile["team_id"] as? String)
        let certificates = (profile["certificates"] as? [[String: Any]] ?? []).compactMap { $0["sha1"] as? String }
        #expect(certificates.contains(signature.signingCertificate?.sha1 ?? "-"), "signed by a certificate of its profile")
        #expect(signature.signingCertificate?.commonName == (profile["certificates"] as? [[String: Any]])?.first?["common_name"] as? String)
        #expect(signature.entitlements?["application-identifier"] == .string("KXGZDK8WNM.codes.mohamadreza.TLDR"))
        #expect(signature.signingTime != nil)
    }

    /// Apple's CMS signature carries the CodeDirectory's SHA-256 as its messageDigest: the cdhash is
    /// its first 20 bytes.
    @Test func theCdhashIsWhatTheCMSSignatureSigned() throws {
        let (root, _) = try Self.corpus()
        let archive = try ZipArchive(path: root + "/" + Self.ipa)
        let entry = try #require(archive.entry(named: "Payload/TLDR.app/TLDR"))
        let bytes = try archive.contents(of: entry, limit: 1 << 26)
        let slice = try #require(try MachOFile(bytes: bytes, path: "TLDR").slices.first)
        let offset = try #require(slice.codeSignatureOffset), length = try #require(slice.codeSignatureSize)
        let start = Int(offset), size = Int(length)
        let superBlob = ByteReader(bytes[start..<start + size])
        var cms: [UInt8]?
        for index in 0..<Int(try superBlob.uint32(at: 8, .bigEndian)) where try superBlob.uint32(at: 12 + index * 8, .bigEndian) == 0x10000 {
            let offset = Int(try superBlob.uint32(at: 16 + index * 8, .bigEndian))
            let length = Int(try superBlob.uint32(at: offset + 4, .bigEndian))
            cms = Array(try superBlob.bytes(at: offset + 8, count: length - 8))
        }
        let blob = try #require(cms)
        let signer = try #require(try CMSDetachedSignedData(bytes: blob).signers.first)
        let digest = try #require(signer.messageDigest)
        #expect(slice.codeSignature?.cdhash == Digest.hex(digest.prefix(20)))
        #expect(slice.codeSignature?.codeDirectory?.hash == Digest.hex(digest))
    }

    /// Signed in March 2020 with a profile and certificate that expired in November 2020.
    @Test func itsSigningProblemsAtTwoDates() throws {
        let (root, expected) = try Self.corpus()
        let artifact = try BuildArtifact(contentsOf: URL(fileURLWithPath: root + "/" + Self.ipa), trust: nil)
        let signed = try #require(ISO8601DateFormatter().date(from: "2020-04-01T00:00:00Z"))
        #expect(artifact.signingProblems(asOf: signed).isEmpty, "\(artifact.signingProblems(asOf: signed))")
        let now = try #require(ISO8601DateFormatter().date(from: expected["reference_now"] as? String ?? ""))
        #expect(artifact.signingProblems(asOf: now).map(\.code) == [.profileExpired, .certificateExpired])
    }

    /// Issue 51: Apple's own signature verifies (pages, bound blobs, CMS over the CodeDirectory, the
    /// chain to Apple's pinned root through the WWDR intermediate, its seal).
    @Test func itsCodeSealAndSignerAreIntact() throws {
        let (root, _) = try Self.corpus()
        let artifact = try BuildArtifact(contentsOf: URL(fileURLWithPath: root + "/" + Self.ipa), trust: .apple)
        #expect(artifact.integrityProblems.isEmpty, "\(artifact.integrityProblems)")
    }

    /// One byte of its executable flipped: the page that holds it is named.
    @Test func aFlippedByteOfItsExecutableIsCodeModified() throws {
        let (root, _) = try Self.corpus()
        let archive = try ZipArchive(path: root + "/" + Self.ipa)
        let entry = try #require(archive.entry(named: "Payload/TLDR.app/TLDR"))
        var bytes = try archive.contents(of: entry, limit: 1 << 26)
        bytes[0x8000] ^= 0x01
        let slice = try #require(try MachOFile(bytes: bytes, path: "TLDR", trust: .apple).slices.first)
        let findings = slice.codeSignature?.findings ?? []
        #expect(findings.map(\.code) == [.codeModified])
        #expect(findings.first?.message.hasPrefix("page 8 (from byte 32768) of the arm64 slice") == true, "\(findings)")
    }
}
