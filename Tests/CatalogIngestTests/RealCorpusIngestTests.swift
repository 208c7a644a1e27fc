import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogIngest
@testable import CatalogStore

/// Issue "catalogue + ingester", against the team's real corpus (`../shared/real-corpus`, read in
/// place and never modified): every profile and build its expected.json lists is catalogued.
@Suite(.timeLimit(.minutes(10)), .enabled(if: IngestPaths.realCorpus != nil, Comment(rawValue: TestPaths.realCorpusAbsent)))
struct RealCorpusIngestTests {
    @Test func everyExpectedProfileAndBuildIsCatalogued() throws {
        let corpus = try #require(IngestPaths.realCorpus)
        let scratch = try Scratch()
        let db = scratch.file("catalog.sqlite")
        let report = try ingest([corpus + "/tree"], db: db)
        #expect(report.filesScanned > 0)

        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        let expected = ExpectedCatalogue(expected: try IngestPaths.expected(at: corpus + "/expected.json"),
                                         prefix: "tree/", root: corpus + "/tree")
        #expect(!expected.profileUUIDs().isEmpty)
        try expected.check(connection)

        // The .ipa's embedded profile is linked to its build.
        for build in expected.builds() where build["source_kind"] as? String == "ipa" {
            let path = expected.absolute(build["path"] as? String ?? "")
            let uuid = try connection.strings("SELECT profile_uuid FROM builds WHERE path = ?", [.text(path)])
            #expect(uuid == [(build["profile_uuid"] as? String ?? "").uppercased()])
        }
    }

    @Test func aSecondRunOverTheCorpusDecodesNothing() throws {
        let corpus = try #require(IngestPaths.realCorpus)
        let scratch = try Scratch()
        let db = scratch.file("catalog.sqlite")
        try ingest([corpus + "/tree"], db: db)
        let before = try canonicalDump(db)
        let second = try ingest([corpus + "/tree"], db: db)
        #expect(second.filesDecoded == 0)
        #expect(second.filesUnchanged == second.filesScanned)
        #expect(try canonicalDump(db) == before)
    }
}
