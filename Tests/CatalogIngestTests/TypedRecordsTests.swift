import CatalogCore
import Foundation
import Testing
@testable import CatalogIngest
@testable import CatalogStore
import CatalogTestSupport

/// Issue 10: the store's typed records say what the files say. `show` reads entitlements back from
/// their stored JSON with Foundation's decoder; every fixture profile's must equal what decoding the
/// file gives (key order aside: the store lists keys sorted).
@Suite(.timeLimit(.minutes(10))) struct TypedRecordsTests {
    @Test func storedEntitlementsReadBackAsTheFileDecodes() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures()
        let db = scratch.file("catalog.sqlite")
        try ingest([tree + "/profiles", tree + "/renewals", tree + "/report"], db: db)
        let queries = try Catalogue.openForReading(path: db).queries
        var filter = CatalogQueries.ProfileFilter()
        filter.scope = .installed
        let profiles = try queries.profiles(filter)
        #expect(profiles.count >= 20)
        var compared = 0
        for summary in profiles {
            let path = try #require(summary.path)
            guard case .profile(let decoded) = try FileDecoder.decode(path: path) else {
                Issue.record("\(path) is not a profile")
                continue
            }
            let detail = try #require(try queries.profileDetail(uuid: summary.uuid))
            guard case .object(let expected) = decoded.entitlements.json else {
                Issue.record("\(path): entitlements are not an object")
                continue
            }
            #expect(detail.entitlements.map(\.key) == expected.map(\.0).sorted(), "\(path)")
            for entry in detail.entitlements {
                #expect(sorted(entry.value) == sorted(expected.first { $0.0 == entry.key }?.1 ?? .null), "\(path): \(entry.key)")
            }
            #expect(detail.uuid == decoded.uuid && detail.kind == decoded.kind && detail.platforms == decoded.platforms)
            #expect(detail.effectiveExpirationDate == decoded.effectiveExpirationDate)
            #expect(detail.certificates.map(\.sha1).sorted() == decoded.certificates.map(\.sha1).sorted())
            compared += 1
        }
        #expect(compared == profiles.count)
    }

    @Test func aMissingCatalogueIsATypedError() throws {
        let scratch = try Scratch()
        let path = scratch.file("nothing-here.sqlite")
        #expect(throws: StoreError.missing(path: path)) { try Catalogue.openForReading(path: path) }
        #expect(throws: StoreError.missing(path: path)) { try Catalogue.openForWriting(path: path, mustExist: true) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// Objects with their keys sorted, at every depth: the store's order for entitlement values.
    private func sorted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let pairs): return .object(pairs.sorted { $0.0 < $1.0 }.map { ($0.0, sorted($0.1)) })
        case .array(let items): return .array(items.map(sorted))
        default: return value
        }
    }
}
