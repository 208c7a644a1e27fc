import CatalogTestSupport
import Foundation
import Testing

/// Issue 52 §7: a past `--as-of` answers for that day from the files' own dates: a profile created
/// after it, or an archive made after it, is not counted, whenever the catalogue first saw it.
@Suite(.timeLimit(.minutes(10))) struct AsOfCreationTests {
    typealias Catalogue = QueryCommandTests.Catalogue

    @Test func profilesCreatedAfterThePastDayAreNotCounted() throws {
        let catalogue = try Catalogue()
        // Most fixture profiles were created 2026-01-15T10:00Z; legacy-2013 in 2013.
        func uuids(_ command: [String]) throws -> Set<String> {
            Set(try catalogue.records(command).compactMap { $0["uuid"] as? String })
        }
        let before = try uuids(["profiles", "--as-of", "2026-01-14"])
        let on = try uuids(["profiles", "--as-of", "2026-01-15"])
        #expect(!before.contains("FF765057-911B-4E46-A94B-D0EC08C7F27F"), "ios-development did not exist yet")
        #expect(on.contains("FF765057-911B-4E46-A94B-D0EC08C7F27F"), "created during the --as-of day")
        #expect(before.count < on.count && !before.isEmpty)
        let expiring = try uuids(["expiring", "--as-of", "2014-01-01", "--days", "400"])
        #expect(!expiring.contains("FF765057-911B-4E46-A94B-D0EC08C7F27F") && !expiring.isEmpty, "\(expiring)")
        let report = try catalogue.run(["report", "--format", "markdown", "--as-of", "2014-01-01"]).stdout
        #expect(!report.contains("Example App AdHoc"), "the report counts only what existed")
    }

    @Test func archivesMadeAfterThePastDayAreNotCounted() throws {
        let catalogue = try Catalogue()
        // Fixtures/bundles/Example.xcarchive was archived 2026-02-03T14:05:06Z.
        func archives(_ day: String) throws -> Int {
            try catalogue.records(["builds", "--as-of", day]).filter { $0["source_kind"] as? String == "xcarchive" }.count
        }
        #expect(try archives("2026-02-02") < archives("2026-02-03"))
    }
}
