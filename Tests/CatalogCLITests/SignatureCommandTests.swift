import CatalogTestSupport
import Foundation
import Testing

/// `catalog verify`, `profiles --signature`, `stats` and `ingest`'s warning, run as a user runs them:
/// the built binary against `Fixtures/signatures` (Apple's pinned roots, so none of them verifies).
@Suite(.timeLimit(.minutes(10))) struct SignatureCommandTests {
    typealias Catalogue = QueryCommandTests.Catalogue
    static let signatures = CatalogProcess.fixtures + "/signatures"

    @Test func ingestWarnsAboutInvalidSignaturesAndStoresEveryVerdict() throws {
        let scratch = try Scratch()
        let folder = scratch.path
        let db = folder + "/catalog.sqlite"
        let result = try CatalogProcess.run(["ingest", Self.signatures, "--db", db])
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") && $0.contains("invalid signature") }
        #expect(warnings.count == 3, "\(result.stderr)")
        for name in ["plist-edited", "signature-flipped", "digest-attribute-changed"] {
            #expect(warnings.contains { $0.contains(name + ".mobileprovision") }, "\(name)")
        }

        let stats = try CatalogProcess.json(try CatalogProcess.run(["stats", "--db", db, "--json"]).stdout) as? [String: Any]
        let counts = stats?["profiles_by_signature"] as? [String: Int]
        #expect(counts == ["verified": 0, "unsigned": 1, "invalid": 3, "untrusted": 8, "error": 0, "unchecked": 0])

        let invalid = try CatalogProcess.json(try CatalogProcess.run(["profiles", "--signature", "invalid", "--db", db, "--json"]).stdout)
            as? [[String: Any]] ?? []
        #expect(invalid.count == 3)
        #expect(invalid.allSatisfy { $0["signature"] as? String == "invalid" })
        let show = try CatalogProcess.run(["show", Self.signatures + "/der-mismatch.mobileprovision", "--db", db, "--json"])
        let detail = try CatalogProcess.json(show.stdout) as? [String: Any]
        #expect(detail?["signature"] as? String == "untrusted")
        #expect((detail?["signature_reason"] as? String)?.contains("not a pinned root") == true)
        #expect(detail?["der_profile"] as? String == "mismatch")
        #expect(detail?["der_profile_differences"] as? [String] == ["Name"])

        let usage = try CatalogProcess.run(["profiles", "--signature", "genuine", "--db", db])
        #expect(usage.status == 64)
    }

    /// A profile with an invalid signature, inside an app and again as a file after it: whichever
    /// copy a worker decodes first, the one warning names the copy met first, the app's embedded
    /// profile (the app used to be named when the file's copy won).
    @Test func invalidSignatureWarningNamesTheFirstCopyWhicheverIsDecodedFirst() throws {
        let scratch = try Scratch()
        let app = try scratch.copyFixtures("bundles/Example.app", to: "tree/A.app")
        try FileManager.default.removeItem(atPath: app + "/embedded.mobileprovision")
        try scratch.copy(Self.signatures + "/plist-edited.mobileprovision", to: "tree/A.app/embedded.mobileprovision")
        try scratch.copy(Self.signatures + "/plist-edited.mobileprovision", to: "tree/z.mobileprovision")
        let tree = scratch.file("tree")
        for run in 0..<6 {
            let result = try CatalogProcess.run(["ingest", tree, "--db", scratch.path + "/run\(run).sqlite"])
            #expect(result.status == 0, "\(result.stderr)")
            let warnings = result.stderr.split(separator: "\n").filter { $0.contains("invalid signature") }
            #expect(warnings.count == 1, "\(result.stderr)")
            #expect(warnings.first?.contains(app + "/embedded.mobileprovision") == true, "\(result.stderr)")
        }
    }

    @Test func verifyPrintsEachVerdictAndFailsUnlessAllVerified() throws {
        let result = try CatalogProcess.run(["verify", Self.signatures + "/good.mobileprovision",
                                             Self.signatures + "/signer-removed.mobileprovision", "--json"])
        #expect(result.status == 1)
        let records = try CatalogProcess.json(result.stdout) as? [[String: Any]] ?? []
        #expect(records.map { $0["signature"] as? String } == ["untrusted", "unsigned"])
        #expect(records.allSatisfy { $0["source"] as? String == "file" })

        let bundle = try CatalogProcess.run(["verify", CatalogProcess.fixtures + "/bundles/Example.app", "--json"])
        let embedded = try CatalogProcess.json(bundle.stdout) as? [[String: Any]] ?? []
        #expect(embedded.first?["signature"] as? String == "untrusted")
        #expect(embedded.first?["der_profile"] as? String == "match")

        let missing = try CatalogProcess.run(["verify", "/nonexistent/x.mobileprovision", "--json"])
        #expect(missing.status == 1)
        #expect(missing.stdout.contains("no such file"))
    }

    @Test(.enabled(if: TestPaths.realCorpus != nil, "needs ../shared/real-corpus beside the checkout"))
    func verifyExitsZeroForRealProfilesByFileAndByUUID() throws {
        let tree = (TestPaths.realCorpus ?? "") + "/tree"
        let file = tree + "/anand-92__mcp-panel/embedded.provisionprofile"
        let byFile = try CatalogProcess.run(["verify", file, "--json"])
        #expect(byFile.status == 0, "\(byFile.stdout)")
        let catalogue = try Catalogue(ingesting: [tree + "/anand-92__mcp-panel"])
        let byUUID = try catalogue.run(["verify", "d12f77c8-a668-4a83-a1f4-e89728f8ca60", "--json"])
        #expect(byUUID.status == 0, "\(byUUID.stdout) \(byUUID.stderr)")
        #expect(byUUID.stdout.contains("\"verified\""))
        let listed = try catalogue.records(["profiles", "--signature", "verified"])
        #expect(listed.count == 2)
    }
}
