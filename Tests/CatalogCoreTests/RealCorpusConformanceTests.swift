import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

/// Decodes every file of `../shared/real-corpus/tree` and compares with its `expected.json`: every
/// profile field listed there must match. Skipped when the corpus is absent (CI has it).
@Suite(.enabled(if: TestPaths.realCorpus != nil, Comment(rawValue: TestPaths.realCorpusAbsent))) struct RealCorpusConformanceTests {
    func conformance() throws -> Conformance {
        let corpus = TestPaths.realCorpus ?? ""
        return try Conformance(expectedPath: corpus + "/expected.json", base: corpus)
    }

    @Test func everyProfileMatchesExpected() throws {
        let conformance = try conformance()
        #expect(conformance.list("profiles").count >= 30)
        try conformance.checkProfiles()
    }

    @Test func everyFileIsRecognisedAsExpected() throws {
        try conformance().checkFiles()
    }

    @Test func everyBuildMatchesExpected() throws {
        try conformance().checkBuilds()
    }
}
