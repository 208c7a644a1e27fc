import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

/// Every real profile in `../shared/real-corpus` verifies against Apple's pinned roots, and every one
/// that carries a `DER-Encoded-Profile` matches it. Skipped, visibly, when the corpus is absent.
@Suite(.enabled(if: TestPaths.realCorpus != nil, "needs ../shared/real-corpus beside the checkout"))
struct RealCorpusSignatureTests {
    /// Real profile files (relative to the corpus) and whether each carries a DER copy.
    static let expected: [(path: String, der: DERProfileCheck.Status)] = [
        ("tree/AndreaSillano__MagicResizer/embedded.provisionprofile", .match),
        ("tree/DKJone__PersonalPage/embedded.mobileprovision", .absent),
        ("tree/Maglev-AI__PrivacyApp/build/ios/Debug-iphoneos/Runner.app/embedded.mobileprovision", .match),
        ("tree/McCrearyModern__DockDoor/DockDoor.mobileprovision", .absent),
        ("tree/McCrearyModern__DockDoor/embedded.mobileprovision", .absent),
        ("tree/Mosquito1123__HappyEnglishTOKorean/embedded.mobileprovision", .absent),
        ("tree/MrAshCreates__MediaMate.app/Contents/embedded.provisionprofile", .match),
        ("tree/OutrageousStorm__test1/embedded.mobileprovision", .match),
        ("tree/anand-92__mcp-panel/embedded-widget.provisionprofile", .match),
        ("tree/anand-92__mcp-panel/embedded.provisionprofile", .match),
        ("tree/anand-92__mcp-panel@bddeec6a/embedded.provisionprofile", .match),
        ("tree/bigNiuSanMao__mobprofile/embedded.mobileprovision", .absent),
        ("tree/caizj-cn__ipa-resign/V5.mobileprovision", .absent),
        ("tree/caizj-cn__ipa-resign/embedded.mobileprovision", .absent),
        ("tree/caizj-cn__ipa-resign/promoter/ios/dkl.mobileprovision", .absent),
        ("tree/chrisscottromano__boggs-scoreboard/build/ios/Debug-iphoneos/Runner.app/embedded.mobileprovision", .match),
        ("tree/chrisscottromano__boggs-scoreboard/build/ios/archive/Runner.xcarchive/Products/Applications/Runner.app/embedded.mobileprovision", .match),
        ("tree/ineo6__resignapp/embedded.mobileprovision", .absent),
        ("tree/ineo6__resignapp/temp/test-tpl/embedded.mobileprovision", .absent),
        ("tree/jilter__HelloWorld/embedded.mobileprovision", .absent),
        ("tree/marcoincerti__Biorhythms/build/ios/archive/Runner.xcarchive/Products/Applications/Runner.app/embedded.mobileprovision", .match),
        ("tree/mohamadrezakoohkan__Resigner/embedded.mobileprovision", .absent),
        ("tree/samjan190799-cmyk__Focal/embedded.mobileprovision", .match),
        ("tree/shede333__PyMobileProvision/mobileprovision/res/sw.mobileprovision", .absent),
        ("tree/shede333__PyMobileProvision/resource/sw-src.mobileprovision", .absent),
        ("tree/shede333__PyMobileProvision@58568641/resource/sw-src.mobileprovision", .absent),
        ("tree/tetratorus__touchfs/embedded.provisionprofile", .match),
        ("tree/tetratorus__touchfs@e6c31d1c/embedded.provisionprofile", .match),
        ("tree/xxxbrian__NatDetectionGUI/embedded.provisionprofile", .match),
    ]

    static func profilePaths() throws -> [String] {
        let base = (TestPaths.realCorpus ?? "") + "/"
        let files = FileManager.default.enumerator(atPath: base + "tree")?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".mobileprovision") || $0.hasSuffix(".provisionprofile") }
            .map { "tree/" + $0 }
            .filter { !FileBytes.isDirectory(base + $0) }
            .sorted()
    }

    @Test func theExpectedListCoversEveryProfileFile() throws {
        #expect(try Self.profilePaths() == Self.expected.map(\.path))
    }

    @Test(arguments: expected) func verifiedAndDERCopyAgrees(path: String, der: DERProfileCheck.Status) throws {
        let base = (TestPaths.realCorpus ?? "") + "/"
        let bytes = try FileBytes.read(base + path, limit: ProfileDecoder.maximumSize)
        let profile = try ProfileDecoder.decode(bytes, path: path)
        #expect(profile.signature?.status == .verified, "\(path): \(profile.signature?.reason ?? "not checked")")
        #expect(profile.signature?.reason.hasSuffix("chain to pinned root 'Apple Root CA'") == true)
        #expect(profile.derProfile == DERProfileCheck(der), "\(path): \(profile.derProfile.differences)")
    }

    /// The DER copies are ECDSA-signed (P-256/P-384) under "Apple Root CA - G3": verifying them with
    /// that root, pinned by its published SHA-256, exercises the ECDSA path on real data.
    @Test func derCopiesVerifyWithECDSAUnderAppleRootG3() throws {
        let g3 = "63343ABFB89A6A03EBB57E9B3F5FA7BE7C4F5C756F3017B3A8C488C3653E9179"
        let base = (TestPaths.realCorpus ?? "") + "/"
        var checked = 0
        for (path, der) in Self.expected where der == .match {
            let bytes = try FileBytes.read(base + path, limit: ProfileDecoder.maximumSize)
            let copy = try #require(try ProfileDecoder.decode(bytes, trust: nil).derEncodedProfile)
            let envelope = try SignedEnvelope(bytes: copy)
            let root = try #require(envelope.certificates.first { Digest.sha256Hex($0) == g3 }, "\(path)")
            let trust = try TrustAnchors(certificates: [root], signerCommonNames: ["WWDR Provisioning Profile Signing"])
            let result = ProfileSignatureVerifier.verify(envelope: copy, trust: trust)
            #expect(result.status == .verified, "\(path): \(result.reason)")
            checked += 1
        }
        #expect(checked == 14)
    }
}
