import CatalogTestSupport
import Foundation
import Testing

/// `catalog verify BUILD`: a build's code signatures against its embedded profiles, run as a user
/// runs it on `Fixtures/codesign` (one build per problem code). The fixtures' profiles chain to the
/// test CA, not Apple's roots, so their verdict is `untrusted` and only the real corpus's IPA exits 0.
@Suite(.timeLimit(.minutes(10))) struct VerifyBuildTests {
    static let codesign = CatalogProcess.fixtures + "/codesign"
    /// After every fixture's certificate and profile have started and before `wildcard` expires.
    static let asOf = ["--as-of", "2026-09-01"]

    static func problems(_ record: [String: Any]) -> [[String: Any]] {
        record["signing_problems"] as? [[String: Any]] ?? []
    }

    @Test func aCleanBuildHasNoProblemAndKeepsItsProfileVerdict() throws {
        for name in ["Signed.app", "Signed.ipa", "Signed.xcarchive", "SignedMac.app"] {
            let result = try CatalogProcess.run(["verify", Self.codesign + "/" + name, "--json"] + Self.asOf)
            let records = try CatalogProcess.json(result.stdout) as? [[String: Any]] ?? []
            #expect(records.count == 1, "\(name)")
            let record = try #require(records.first)
            #expect(record["signing_problems"] as? [Any] != nil && Self.problems(record).isEmpty, "\(name): \(result.stdout)")
            #expect(record["signature"] as? String == "untrusted", "\(name)")
            #expect(record["der_profile"] as? String == "match", "\(name)")
            // Exit 1 only for the test CA's profile signature.
            #expect(result.status == 1, "\(name)")
        }
        // A profile file has no code signature to check.
        let profile = try CatalogProcess.run(["verify", CatalogProcess.fixtures + "/profiles/ios-adhoc.mobileprovision", "--json"])
        let records = try CatalogProcess.json(profile.stdout) as? [[String: Any]] ?? []
        #expect(records.first?["signing_problems"] is NSNull)
    }

    @Test func eachProblemBuildExitsOneNamingItsCode() throws {
        let expected: [(String, String)] = [
            ("Unsigned.app", "unsigned"), ("AdHoc.app", "ad-hoc"), ("NoProfile.app", "no-profile"),
            ("WrongCertificate.app", "certificate-not-in-profile"), ("OtherTeam.app", "team-mismatch"),
            ("WrongBundleID.app", "bundle-id-not-covered"), ("ExtraEntitlements.app", "entitlement-not-allowed"),
            ("ExpiredProfile.app", "profile-expired"), ("ExpiredCertificate.app", "certificate-expired"),
            ("Debuggable.app", "get-task-allow-mismatch"),
        ]
        for (name, code) in expected {
            let path = Self.codesign + "/" + name
            let result = try CatalogProcess.run(["verify", path, "--json"] + Self.asOf)
            #expect(result.status == 1, "\(name)")
            let record = try #require((try CatalogProcess.json(result.stdout) as? [[String: Any]])?.first)
            let problems = Self.problems(record)
            #expect(problems.map { $0["code"] as? String } .allSatisfy { $0 == code }, "\(name): \(problems)")
            #expect(!problems.isEmpty, "\(name)")
            #expect(problems.allSatisfy { ($0["executable"] as? String)?.isEmpty == false && ($0["message"] as? String)?.isEmpty == false })

            let table = try CatalogProcess.run(["verify", path, "--format", "table"] + Self.asOf)
            #expect(table.status == 1)
            #expect(table.stdout.contains(code), "\(name): \(table.stdout)")
        }
    }

    @Test func asOfDatesTheExpiryCodes() throws {
        func codes(_ name: String, _ date: String) throws -> [String] {
            let result = try CatalogProcess.run(["verify", Self.codesign + "/" + name, "--json", "--as-of", date])
            let record = try #require((try CatalogProcess.json(result.stdout) as? [[String: Any]])?.first)
            return Self.problems(record).compactMap { $0["code"] as? String }
        }
        #expect(try codes("ExpiredProfile.app", "2026-06-01").isEmpty, "wildcard expires 2026-07-15")
        #expect(try codes("ExpiredProfile.app", "2026-09-01") == ["profile-expired"])
        #expect(try codes("ExpiredCertificate.app", "2026-03-01").isEmpty)
        #expect(try codes("ExpiredCertificate.app", "2026-06-01") == ["certificate-expired"])
        #expect(try codes("Signed.app", "2027-01-01").contains("profile-expired"))
    }

    @Test(.enabled(if: TestPaths.realCorpus != nil, "needs ../shared/real-corpus beside the checkout"))
    func theRealSignedIPAExitsZeroWhileItsProfileIsValid() throws {
        let ipa = (TestPaths.realCorpus ?? "") + "/tree/mohamadrezakoohkan__Resigner/app.ipa"
        let valid = try CatalogProcess.run(["verify", ipa, "--json", "--as-of", "2020-04-01"])
        #expect(valid.status == 0, "\(valid.stdout)")
        let record = try #require((try CatalogProcess.json(valid.stdout) as? [[String: Any]])?.first)
        #expect(record["signature"] as? String == "verified")
        #expect(Self.problems(record).isEmpty)
        let later = try CatalogProcess.run(["verify", ipa, "--json", "--as-of", "2030-01-01"])
        #expect(later.status == 1)
        #expect(later.stdout.contains("profile-expired"))
    }
}
