import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

/// Every generated signature fixture gets its status, against the fixtures' own test roots (the
/// `verified` path, on a clean clone) and against Apple's pinned roots (what the CLI does).
@Suite(.timeLimit(.minutes(10))) struct SignatureFixtureTests {
    static let signatures = TestPaths.fixtures + "/signatures/"

    /// The test root of `Fixtures/signatures`, and the CN its profile signer has.
    static func testTrust() throws -> TrustAnchors {
        try TrustAnchors(pem: String(contentsOfFile: signatures + "root.pem", encoding: .utf8),
                         signerCommonNames: ["Catalog Test Profile Signing"])
    }

    static func decode(_ path: String, _ trust: TrustAnchors) throws -> ProvisioningProfile {
        try ProfileDecoder.decode(try FileBytes.read(path, limit: ProfileDecoder.maximumSize), path: path, trust: trust)
    }

    // MARK: Tampered fixtures

    static let expected: [(file: String, status: ProfileSignature.Status, reason: String)] = [
        ("good", .verified, "signed at 2026-01-15T10:00:00Z; chain to pinned root 'Catalog Test Signature Root'"),
        ("plist-edited", .invalid, "message digest mismatch"),
        ("resigned-other-key", .untrusted, "chain ends at self-signed 'Catalog Test Profile Signing'"),
        ("signer-removed", .unsigned, "no signer"),
        ("signature-flipped", .invalid, "signature does not match the signed attributes"),
        ("digest-attribute-changed", .invalid, "message digest mismatch"),
        ("intermediate-missing", .untrusted, "is neither in the envelope nor a pinned root"),
        ("fake-apple-root", .untrusted, "chain ends at self-signed 'Apple Root CA'"),
        ("der-mismatch", .verified, "chain to pinned root"),
        ("expired-since-signing", .verified, "signed at 2013-03-01T12:00:00Z"),
        ("signed-before-valid", .untrusted, "was not valid at 2024-06-01T00:00:00Z"),
        ("leaf-as-issuer", .untrusted, "'Apple Development: Jane Doe (ABCDE12345)' issued"),
    ]

    @Test(arguments: expected)
    func tamperedFixtureGetsItsStatus(file: String, status: ProfileSignature.Status, reason: String) throws {
        let profile = try Self.decode(Self.signatures + file + ".mobileprovision", Self.testTrust())
        #expect(profile.signature?.status == status, "\(file): \(profile.signature?.reason ?? "nil")")
        #expect(profile.signature?.reason.contains(reason) == true, "\(file): \(profile.signature?.reason ?? "nil")")
    }

    /// The verifier reuses one libcrypto context per key and digest: valid and invalid signatures by
    /// the same key, checked over and over on several threads at once, keep their verdicts (a failed
    /// check leaves the context usable for the next).
    @Test func reusedVerificationContextsKeepEveryVerdict() async throws {
        let trust = try Self.testTrust()
        let files = ["good", "signature-flipped", "plist-edited", "der-mismatch", "digest-attribute-changed"]
        let bytes = try files.map { try FileBytes.read(Self.signatures + $0 + ".mobileprovision", limit: ProfileDecoder.maximumSize) }
        let expected = try bytes.map { try ProfileDecoder.decode($0, trust: trust).signature }
        #expect(expected.map { $0?.status } == [.verified, .invalid, .invalid, .verified, .invalid])
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<25 {
                        let index = (round + worker) % bytes.count
                        let signature = try? ProfileDecoder.decode(bytes[index], trust: trust).signature
                        if signature != expected[index] { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test func everyFixtureFileIsListed() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.signatures)
            .filter { $0.hasSuffix(".mobileprovision") }.map { String($0.dropLast(".mobileprovision".count)) }
        #expect(Set(files) == Set(Self.expected.map(\.file)))
    }

    @Test func derCopyDisagreeingWithTheXMLIsAMismatchNamingTheKey() throws {
        let mismatch = try Self.decode(Self.signatures + "der-mismatch.mobileprovision", Self.testTrust())
        #expect(mismatch.derProfile == DERProfileCheck(.mismatch, differences: ["Name"]))
        let good = try Self.decode(Self.signatures + "good.mobileprovision", Self.testTrust())
        #expect(good.derProfile == DERProfileCheck(.match))
    }

    /// The decoder reads each envelope once and hands its signers to the verifier: its verdict is
    /// the standalone verifier's on every profile among the fixtures (tampered, malformed, lenient,
    /// renewals, bundles), against both sets of roots.
    @Test func theDecodersVerdictIsTheVerifiersOnEveryFixture() throws {
        let root = TestPaths.fixtures
        let files = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".mobileprovision") || $0.hasSuffix(".provisionprofile") }
        #expect(files.count > 30, "\(files.count) profiles found under \(root)")
        var signed = 0
        for file in files {
            let bytes = try FileBytes.read(root + "/" + file, limit: ProfileDecoder.maximumSize)
            for trust in [try Self.testTrust(), TrustAnchors.apple] {
                guard let profile = try? ProfileDecoder.decode(bytes, trust: trust) else { continue }
                guard bytes.first == 0x30 else { continue }
                signed += 1
                let alone = ProfileSignatureVerifier.verify(envelope: bytes, trust: trust, fallbackTime: profile.creationDate)
                #expect(profile.signature == alone, "\(file)")
            }
        }
        #expect(signed > 30)
    }

    // MARK: Against Apple's roots

    @Test func withAppleRootsNothingGeneratedIsVerified() throws {
        for (file, _, _) in Self.expected {
            let profile = try Self.decode(Self.signatures + file + ".mobileprovision", .apple)
            #expect(profile.signature?.status != .verified, "\(file)")
        }
        let good = try Self.decode(Self.signatures + "good.mobileprovision", .apple)
        #expect(good.signature?.status == .untrusted)
    }

    /// Pinning is by key, not by name: the look-alike root carries Apple Root CA's exact subject.
    @Test func lookAlikeAppleRootHasTheRealNameButIsUntrusted() throws {
        let fake = try ChainCertificate(der: Array(try Data(contentsOf: URL(fileURLWithPath: Self.signatures + "apple-lookalike-root.der"))))
        let real = try #require(TrustAnchors.apple.roots.first { $0.subjectCommonName == "Apple Root CA" })
        #expect(fake.subject == real.subject)
        #expect(fake.sha256 != real.sha256)
        let profile = try Self.decode(Self.signatures + "fake-apple-root.mobileprovision", .apple)
        #expect(profile.signature?.status == .untrusted)
        #expect(profile.signature?.reason.contains("which is not a pinned root") == true, "\(profile.signature?.reason ?? "")")
    }

    @Test func applePinsAreTheCompiledInRoots() {
        #expect(Set(TrustAnchors.apple.rootSHA256) == Set(TrustAnchors.appleRootPins.values))
        #expect(TrustAnchors.apple.roots.count == 2)
    }

    // MARK: The decoder's own fixtures (openssl -noattr envelopes, two-certificate chain)

    static let profileFiles: [String] = {
        let folder = TestPaths.fixtures + "/profiles"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().map { folder + "/" + $0 }
    }()

    @Test func fixtureProfilesVerifyAgainstTheTestCAAndNotAgainstApple() throws {
        let ca = try TrustAnchors(pem: String(contentsOfFile: TestPaths.fixtures + "/certs/ca.pem", encoding: .utf8))
        #expect(Self.profileFiles.count >= 20)
        for path in Self.profileFiles {
            let name = URL(fileURLWithPath: path).lastPathComponent
            let withCA = try Self.decode(path, ca)
            let withApple = try Self.decode(path, .apple)
            if name.hasPrefix("bare-") {
                #expect(withCA.signature?.status == .unsigned, "\(name)")
                #expect(withApple.signature?.status == .unsigned, "\(name)")
            } else {
                // No signing time (-noattr): validity is judged at the profile's CreationDate.
                #expect(withCA.signature?.status == .verified, "\(name): \(withCA.signature?.reason ?? "")")
                #expect(withCA.signature?.reason.contains("created (no signing time)") == true, "\(name)")
                #expect(withApple.signature?.status == .untrusted, "\(name): \(withApple.signature?.reason ?? "")")
                // make_profiles.py writes unicode-names' Name into the XML after building its DER copy
                // (which keeps the "@@NAME@@" placeholder): a genuine disagreement.
                let der = name.hasPrefix("unicode-names") ? DERProfileCheck(.mismatch, differences: ["Name"]) : DERProfileCheck(.match)
                #expect(withCA.derProfile == der, "\(name): \(withCA.derProfile.differences)")
            }
        }
    }

    @Test func verificationCanBeSkipped() throws {
        let profile = try Self.decode(Self.signatures + "good.mobileprovision", .apple)
        #expect(profile.signature != nil)
        let bytes = try FileBytes.read(Self.signatures + "good.mobileprovision", limit: ProfileDecoder.maximumSize)
        #expect(try ProfileDecoder.decode(bytes, trust: nil).signature == nil)
    }

    @Test func trailingBytesAfterTheEnvelopeAreIgnoredAndSaid() throws {
        let bytes = try FileBytes.read(Self.signatures + "good.mobileprovision", limit: ProfileDecoder.maximumSize)
        let result = ProfileSignatureVerifier.verify(envelope: bytes + [0, 0, 0x0A], trust: try Self.testTrust())
        #expect(result.status == .verified)
        #expect(result.reason.hasSuffix("(3 unsigned trailing bytes after the envelope ignored)"), "\(result.reason)")
    }

    @Test func truncatedOrGarbageEnvelopesAreErrorsNotCrashes() throws {
        let bytes = try FileBytes.read(Self.signatures + "good.mobileprovision", limit: ProfileDecoder.maximumSize)
        for cut in stride(from: 0, to: bytes.count, by: 97) {
            let result = ProfileSignatureVerifier.verify(envelope: Array(bytes[..<cut]), trust: .apple)
            #expect(result.status == .error)
        }
    }
}
