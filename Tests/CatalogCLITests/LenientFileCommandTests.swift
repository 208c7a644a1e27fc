import Foundation
import Testing
import CatalogTestSupport

/// Issue 9 §2 through the binary: `decode` and `show` on the files of `Fixtures/lenient/`.
@Suite(.timeLimit(.minutes(10))) struct LenientFileCommandTests {
    static func lenient(_ name: String) -> String { CatalogProcess.fixtures + "/lenient/" + name }

    @Test func decodeWarnsAndListsUndecodableCertificates() throws {
        let path = Self.lenient("undecodable-certificates.mobileprovision")
        let result = try CatalogProcess.run(["decode", path])
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: \(path): DeveloperCertificates[") }
        #expect(warnings.count == 2, "\(result.stderr)")
        let object = try CatalogProcess.json(result.stdout) as? [String: Any] ?? [:]
        let listed = object["undecodable_certificates"] as? [[String: Any]] ?? []
        #expect(listed.compactMap { $0["index"] as? Int } == [0, 2])
        #expect(listed.allSatisfy { ($0["sha256"] as? String)?.count == 64 && !(($0["reason"] as? String) ?? "").isEmpty })
        #expect((object["certificates"] as? [Any])?.count == 1)
        #expect(object["effective_expiration_date"] as? String == "2026-05-15T12:00:00Z")

        let table = try CatalogProcess.run(["decode", path, "--format", "table"])
        #expect(table.status == 0)
        #expect(table.stdout.contains("undecodable_certificates") && table.stdout.contains("empty data"))
    }

    @Test func decodeNotesATrailingNewline() throws {
        let path = Self.lenient("trailing-newline.mobileprovision")
        let result = try CatalogProcess.run(["decode", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "warning: \(path): 1 trailing byte after the CMS envelope ignored\n")
        let object = try CatalogProcess.json(result.stdout) as? [String: Any] ?? [:]
        #expect(object["envelope_trailing_bytes"] as? Int == 1)
        // Far more than a line ending is still an error.
        let garbage = try CatalogProcess.run(["decode", CatalogProcess.fixtures + "/malformed/trailing-garbage.mobileprovision"])
        #expect(garbage.status == 1)
        #expect(garbage.stderr.contains("80 trailing bytes after the outermost element"))
    }

    @Test func decodeReadsAFinderCompressedIPA() throws {
        let result = try CatalogProcess.run(["decode", Self.lenient("FinderCompressed.ipa")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let object = try CatalogProcess.json(result.stdout) as? [String: Any] ?? [:]
        #expect(object["app_path"] as? String == "FinderCompressed/Payload/Example.app")
        #expect(object["bundle_id"] as? String == "com.example.finder")
        #expect((object["profile"] as? [String: Any])?["uuid"] as? String != nil)
    }

    @Test func showListsTheUndecodableCertificatesTheCatalogueHolds() throws {
        let scratch = try Scratch()
        let folder = scratch.path
        let db = folder + "/catalog.sqlite"
        let ingest = try CatalogProcess.run(["ingest", CatalogProcess.fixtures + "/lenient", "--db", db])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(ingest.stderr.contains("warning: ") && ingest.stderr.contains("DeveloperCertificates[2]"))
        let decoded = try CatalogProcess.json(try CatalogProcess.run(["decode", Self.lenient("undecodable-certificates.mobileprovision")]).stdout)
        let uuid = try #require((decoded as? [String: Any])?["uuid"] as? String)
        let show = try CatalogProcess.run(["show", uuid, "--db", db, "--json"])
        #expect(show.status == 0, "\(show.stderr)")
        let object = try CatalogProcess.json(show.stdout) as? [String: Any] ?? [:]
        let listed = object["undecodable_certificates"] as? [[String: Any]] ?? []
        #expect(listed.map { $0["sha1"] as? String } == (decoded as? [String: Any])
            .flatMap { $0["undecodable_certificates"] as? [[String: Any]] }?.map { $0["sha1"] as? String })
        #expect(listed.first?["reason"] as? String == "empty data")
        #expect((object["certificates"] as? [Any])?.count == 1)
    }
}
