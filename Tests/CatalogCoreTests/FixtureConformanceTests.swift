import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

/// Decodes the generated fixtures and compares with `Fixtures/expected.json`, which
/// `Fixtures/scripts/make_expected.py` computes from the files with openssl and plistlib.
@Suite struct FixtureConformanceTests {
    func conformance() throws -> Conformance {
        try Conformance(expectedPath: TestPaths.fixtures + "/expected.json", base: TestPaths.packageRoot,
                        ignoredProfileKeys: ["path", "envelope", "envelope_certificates", "entitlement_keys",
                                             "has_der_encoded_profile", "platform_key_present", "unknown_keys",
                                             "uuid_as_written"])
    }

    @Test func everyProfileMatchesExpected() throws {
        let conformance = try conformance()
        #expect(conformance.list("profiles").count >= 20)
        try conformance.checkProfiles()
    }

    @Test func fixtureOnlyFacts() throws {
        for profile in try conformance().list("profiles") {
            let path = profile["path"] as? String ?? ""
            guard case .profile(let model) = try FileDecoder.decode(path: TestPaths.packageRoot + "/" + path) else {
                Issue.record("\(path): not a profile")
                continue
            }
            #expect(model.entitlements.keys.sorted() == (profile["entitlement_keys"] as? [String] ?? []).sorted(), "\(path)")
            #expect(model.unknownKeys.keys.sorted() == (profile["unknown_keys"] as? [String] ?? []).sorted(), "\(path)")
            #expect((model.derEncodedProfile != nil) == (profile["has_der_encoded_profile"] as? Bool), "\(path)")
            #expect(model.envelopeCertificateCount == profile["envelope_certificates"] as? Int, "\(path)")
        }
    }

    @Test func everyFileIsRecognisedAsExpected() throws {
        try conformance().checkFiles()
    }

    @Test func everyBuildMatchesExpected() throws {
        try conformance().checkBuilds()
    }

    @Test func malformedInputsFailWithTheirKind() throws {
        for item in try conformance().list("malformed") {
            let path = item["path"] as? String ?? ""
            do {
                _ = try FileDecoder.decode(path: TestPaths.packageRoot + "/" + path)
                Issue.record("\(path) decoded but should have failed")
            } catch let error as DecodeError {
                #expect(error.kind.rawValue == item["error"] as? String, "\(path): \(error)")
                #expect(error.path != nil, "\(path): the error must name the file")
            }
        }
    }
}
