import Foundation
import Testing
@testable import CatalogIngest
@testable import CatalogStore
import CatalogTestSupport

/// Issue 9 §2 in the catalogue: the files of `Fixtures/lenient/` are catalogued with a warning, not
/// recorded as errors; undecodable certificates are stored beside the profile's certificates.
@Suite(.timeLimit(.minutes(10))) struct LenientIngestTests {

    @Test func lenientFilesAreCataloguedWithWarnings() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("lenient", to: "lenient")
        let db = scratch.file("catalog.sqlite")
        var warnings: [(String, String)] = []
        let connection = try Connection.openCatalogue(path: db)
        let report = try Ingester(db: connection, options: IngestOptions(roots: [tree])).run(warning: { path, message in
            warnings.append((path, message))
        })
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(try connection.count("SELECT count(*) AS n FROM ingest_errors") == 0)
        #expect(try connection.count("SELECT count(*) AS n FROM files WHERE status <> 'ok'") == 0)

        // The profile with two undecodable entries: kept, one certificate linked, two listed.
        let uuid = try #require(try connection.strings(
            "SELECT uuid AS line FROM profiles WHERE name = 'Example Undecodable Certificates'").first)
        #expect(try connection.strings("""
            SELECT effective_expiration_date || ' ' || expiry_cause || ' ' || certificate_count FROM profiles WHERE uuid = ?
            """, [.text(uuid)]) == ["2026-05-15T12:00:00Z certificate 1"])
        #expect(try connection.strings("""
            SELECT position || ' ' || size || ' ' || sha1 || ' ' || reason FROM profile_undecodable_certificates
            WHERE profile_uuid = ? ORDER BY position
            """, [.text(uuid)]).first == "0 0 DA39A3EE5E6B4B0D3255BFEF95601890AFD80709 empty data")
        #expect(try connection.count("SELECT count(*) AS n FROM profile_undecodable_certificates WHERE profile_uuid = ?",
                                     [.text(uuid)]) == 2)
        #expect(try connection.count("SELECT count(*) AS n FROM profile_certificates JOIN profiles p ON p.id = profile_id WHERE p.uuid = ?",
                                     [.text(uuid)]) == 1)

        // The trailing newline and the Finder-compressed IPA.
        #expect(try connection.count("SELECT count(*) AS n FROM profiles WHERE name = 'Example Trailing Newline'") == 1)
        let ipa = tree + "/FinderCompressed.ipa"
        #expect(try connection.strings("SELECT app_path || ' ' || bundle_id FROM builds WHERE path = ?", [.text(ipa)])
                == ["FinderCompressed/Payload/Example.app com.example.finder"])
        #expect(try connection.count("SELECT count(*) AS n FROM profile_locations WHERE path = ?",
                                     [.text(ipa + "!FinderCompressed/Payload/Example.app/embedded.mobileprovision")]) == 1)

        // Warned about: the two certificates and the newline; nothing about the IPA.
        let undecodable = tree + "/undecodable-certificates.mobileprovision"
        #expect(warnings.filter { $0.0 == undecodable }.count == 2)
        #expect(warnings.contains { $0.0 == tree + "/trailing-newline.mobileprovision" && $0.1.contains("trailing byte") })
        #expect(warnings.count == 3, "\(warnings)")
    }

    /// A profile's certificates change: the undecodable rows are replaced with the profile's, not added.
    @Test func aFullRerunReplacesTheUndecodableRows() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("lenient", to: "lenient")
        let db = scratch.file("catalog.sqlite")
        try ingest([tree], db: db)
        try ingest([tree], db: db, full: true)
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        #expect(try connection.count("SELECT count(*) AS n FROM profile_undecodable_certificates") == 2)
    }
}
