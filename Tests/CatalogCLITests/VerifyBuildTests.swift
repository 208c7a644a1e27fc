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

    /// The problems a fixture was made for: the CLI trusts Apple's roots only, so every executable
    /// the fixtures' CA signed is also `certificate-not-apple` (checked on its own below).
    static func problems(_ record: [String: Any]) -> [[String: Any]] {
        allProblems(record).filter { $0["code"] as? String != "certificate-not-apple" }
    }

    static func allProblems(_ record: [String: Any]) -> [[String: Any]] {
        record["signing_problems"] as? [[String: Any]] ?? []
    }

    @Test func aCleanBuildHasNoProblemAndKeepsItsProfileVerdict() throws {
        for name in ["Signed.app", "Signed.ipa", "Signed.xcarchive", "SignedMac.app"] {
            let result = try CatalogProcess.run(["verify", Self.codesign + "/" + name, "--json"] + Self.asOf)
            let records = try CatalogProcess.json(result.stdout) as? [[String: Any]] ?? []
            #expect(records.count == 1, "\(name)")
            let record = try #require(records.first)
            #expect(record["signing_problems"] as? [Any] != nil && Self.problems(record).isEmpty, "\(name): \(result.stdout)")
            let foreign = Self.allProblems(record).filter { $0["code"] as? String == "certificate-not-apple" }
            #expect(!foreign.isEmpty && foreign.allSatisfy { ($0["message"] as? String)?.contains("Catalog Test WWDR CA") == true },
                    "\(name): the fixtures' CA is not Apple's")
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

    /// Issue 51 §8 through the CLI: each `Fixtures/integrity` build exits 1 with exactly the problems
    /// it was made for (beside `certificate-not-apple`, the CLI never trusting the fixtures' CA).
    @Test func eachIntegrityFixtureGivesItsCodes() throws {
        let folder = CatalogProcess.fixtures + "/integrity"
        let expected = try TestPaths.expected(at: folder + "/expected.json")
        let fixtures = expected["fixtures"] as? [String: [[String: Any]]] ?? [:]
        #expect(fixtures.count >= 18)
        for (name, want) in fixtures {
            let result = try CatalogProcess.run(["verify", folder + "/" + name, "--json", "--as-of", "2026-09-01"])
            #expect(result.status == 1, "\(name)")
            let record = try #require((try CatalogProcess.json(result.stdout) as? [[String: Any]])?.first, "\(name)")
            let got = Self.problems(record).map { "\($0["code"] as? String ?? "?") \($0["executable"] as? String ?? "?")" }
            let wanted = want.filter { $0["code"] as? String != "certificate-not-apple" }
                .map { "\($0["code"] as? String ?? "?") \($0["executable"] as? String ?? "?")" }
            #expect(got.sorted() == wanted.sorted(), "\(name): \(Self.problems(record))")
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

    /// The keys of a build's one-row answer beside its profile's verdict.
    static let answerKeys = ["signer_name", "signer_sha1", "team_id", "profile_name", "profile_uuid", "profile_kind",
                             "launches_until", "launches_until_cause", "launches_until_executable", "launches_until_reason"]

    @Test func aBuildsRowSaysWhoSignedItWithWhatAndUntilWhen() throws {
        let result = try CatalogProcess.run(["verify", Self.codesign + "/Signed.ipa", "--json"] + Self.asOf)
        let record = try #require((try CatalogProcess.json(result.stdout) as? [[String: Any]])?.first)
        #expect(record["signer_name"] as? String == "Apple Distribution: Example Corp (TEAM123456)")
        #expect(record["signer_sha1"] as? String == Self.distSHA1)
        #expect(record["team_id"] as? String == "TEAM123456")
        #expect(record["profile_name"] as? String == "Example App AdHoc" && record["profile_kind"] as? String == "ad-hoc")
        #expect(record["profile_uuid"] as? String == "080B4AFF-C595-4955-AEED-8B8810E698FC")
        #expect(record["uuid"] as? String == record["profile_uuid"] as? String, "the contract's key stays")
        #expect(record["launches_until"] as? String == "2026-12-01T10:00:00Z" && record["launches_until_cause"] as? String == "profile")
        #expect(record["launches_until_executable"] as? String == "Payload/Signed.app/Signed")
        #expect((record["launches_until_reason"] as? String)?.contains("'Example App AdHoc'") == true)
        // The table keeps the answer's most wanted columns.
        let table = try CatalogProcess.run(["verify", Self.codesign + "/Signed.ipa", "--format", "table"] + Self.asOf)
        for header in ["SIGNATURE", "PROBLEMS", "LAUNCHES UNTIL", "SIGNER", "PROFILE", "PATH"] {
            #expect(table.stdout.contains(header), "\(header): \(table.stdout)")
        }
        #expect(table.stdout.contains("2026-12-01") && table.stdout.contains("Apple Distribution: Example Corp"))

        // An ad hoc signature has no signer; an App Store build no date, with its cause.
        let adHoc = try #require((try CatalogProcess.json(try CatalogProcess.run(["verify", Self.codesign + "/AdHoc.app", "--json"]).stdout)
            as? [[String: Any]])?.first)
        #expect(adHoc["signer_name"] is NSNull && adHoc["signer_sha1"] is NSNull && adHoc["profile_name"] as? String == "Example App AdHoc")
        let store = try CatalogProcess.run(["verify", CatalogProcess.fixtures + "/bundles/Example.xcarchive", "--json"])
        let storeRecord = try #require((try CatalogProcess.json(store.stdout) as? [[String: Any]])?.first)
        #expect(storeRecord["launches_until"] is NSNull && storeRecord["launches_until_cause"] as? String == "app-store")
        #expect(storeRecord["profile_kind"] as? String == "app-store")
    }

    /// `dist`'s SHA-1 (Fixtures/certs/dist.der).
    static let distSHA1 = "EE7D8F620A59A3292183F824112F8EB38A4E9A6F"

    @Test func aProfilesRowHasTheBuildKeysNull() throws {
        let result = try CatalogProcess.run(["verify", CatalogProcess.fixtures + "/profiles/ios-adhoc.mobileprovision", "--json"])
        let record = try #require((try CatalogProcess.json(result.stdout) as? [[String: Any]])?.first)
        for key in Self.answerKeys { #expect(record[key] is NSNull, "\(key)") }
        // A table of profiles alone shows none of the build-only columns.
        let table = try CatalogProcess.run(["verify", CatalogProcess.fixtures + "/profiles/ios-adhoc.mobileprovision", "--format", "table"])
        #expect(!table.stdout.contains("LAUNCHES UNTIL") && !table.stdout.contains("SIGNER") && table.stdout.contains("REASON"))
    }
}
