import CatalogCore
import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogIngest
@testable import CatalogStore

/// Issue 53 §5 in the ingest: the bundles nested in an `.ipa`'s app are builds of their own, each
/// with its parent and its embedded profile's location in the zip; an `.ipa` re-read without one
/// loses that build and that location, the rest kept as they were.
@Suite struct ZipNestedBuildsTests {
    static func rows(_ db: String) throws -> [String] {
        try Connection.openCatalogue(path: db, readOnly: true).strings("""
            SELECT b.app_path || ' ' || COALESCE(p.app_path, '-') || ' ' || (b.removed_at IS NULL) FROM builds b
            LEFT JOIN builds p ON p.id = b.parent_build_id ORDER BY b.app_path
            """)
    }

    static func locations(_ db: String, under tree: String) throws -> [String] {
        try Connection.openCatalogue(path: db, readOnly: true).strings("""
            SELECT substr(path, \(tree.count + 2)) || ' ' || container_kind || ' ' || (removed_at IS NULL)
            FROM profile_locations ORDER BY path
            """)
    }

    @Test func anIPAReReadWithoutANestedBundleLosesItsBuildAndLocation() throws {
        let scratch = try Scratch()
        let tree = scratch.file("tree")
        let ipa = try scratch.copy(IngestPaths.fixtures + "/ipa/Example.ipa", to: "tree/Example.ipa")
        let db = scratch.file("catalog.sqlite")
        let first = try ingest([tree], db: db)
        #expect(first.buildsNew == 3 && first.errors.isEmpty)
        #expect(try Self.rows(db) == [
            "Payload/Example.app - 1",
            "Payload/Example.app/PlugIns/Widget.appex Payload/Example.app 1",
            "Payload/Example.app/Watch/ExampleWatch.app Payload/Example.app 1",
        ])
        #expect(try Self.locations(db, under: tree) == [
            "Example.ipa!Payload/Example.app/PlugIns/Widget.appex/embedded.mobileprovision ipa 1",
            "Example.ipa!Payload/Example.app/embedded.mobileprovision ipa 1",
        ])

        // The same .ipa without its extension, written anew.
        let archive = try ZipArchive(path: ipa)
        let kept = try archive.entries.filter { !$0.isDirectory && !$0.name.contains("/PlugIns/") }
            .map { StoredZip.Member($0.name, try archive.contents(of: $0, limit: 1 << 24)) }
        _ = try scratch.write("tree/Example.ipa", StoredZip.bytes(kept))
        let second = try ingest([tree], db: db)
        #expect(second.buildsNew == 0 && second.buildsRemoved == 1 && second.errors.isEmpty)
        #expect(second.profilesRemoved == 1, "the extension's profile was embedded nowhere else")
        #expect(try Self.rows(db) == [
            "Payload/Example.app - 1",
            "Payload/Example.app/PlugIns/Widget.appex Payload/Example.app 0",
            "Payload/Example.app/Watch/ExampleWatch.app Payload/Example.app 1",
        ])
        #expect(try Self.locations(db, under: tree) == [
            "Example.ipa!Payload/Example.app/PlugIns/Widget.appex/embedded.mobileprovision ipa 0",
            "Example.ipa!Payload/Example.app/embedded.mobileprovision ipa 1",
        ])
        // Unchanged since: read no more.
        #expect(try ingest([tree], db: db).filesDecoded == 0)
    }
}
