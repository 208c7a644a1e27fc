import CatalogCore
import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogIngest
@testable import CatalogStore

/// `build_binaries`: a row per slice of every executable and dSYM of each build location, written
/// when the build is (re)written, left alone when it is unchanged, filled in for the builds a
/// catalogue held before migration 0018.
@Suite struct BuildBinariesIngestTests {
    static func rows(_ db: String) throws -> [Row] {
        try Connection.openCatalogue(path: db, readOnly: true).query("""
            SELECT bb.id, b.path AS build_path, b.app_path, bb.kind, bb.role, bb.path, bb.bundle_id, bb.arch, bb.uuid,
                bb.cdhash, bb.team_id, bb.certificate_sha1, bb.certificate_name, bb.identifier
            FROM build_binaries bb JOIN builds b ON b.id = bb.build_id ORDER BY bb.id
            """)
    }

    @Test func everySliceOfEveryExecutableAndDSYMIsKept() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("codesign", to: "codesign")
        let db = scratch.file("catalog.sqlite")
        try ingest([tree], db: db)
        let rows = try Self.rows(db)

        // As decode reads them, slice by slice.
        for name in ["Signed.app", "Signed.xcarchive", "Unsigned.app"] {
            let artifact = try BuildArtifact(contentsOf: URL(fileURLWithPath: tree + "/" + name), trust: nil)
            let stored = rows.filter { $0.string("build_path") == tree + "/" + name }
            let slices = artifact.executables.reduce(0) { $0 + max(1, $1.binary?.slices.count ?? 0) }
                + artifact.dsyms.reduce(0) { $0 + max(1, $1.binary?.slices.count ?? 0) }
            #expect(stored.count == slices, "\(name)")
            for executable in artifact.executables {
                for slice in executable.binary?.slices ?? [] {
                    let row = stored.first { $0.string("path") == executable.path && $0.string("arch") == slice.architecture }
                    #expect(row?.string("uuid") == slice.uuid, "\(name) \(executable.path)")
                    #expect(row?.string("role") == executable.role.rawValue)
                    #expect(row?.string("bundle_id") == executable.bundleID)
                    #expect(row?.string("cdhash") == slice.codeSignature?.cdhash)
                    #expect(row?.string("certificate_sha1") == slice.codeSignature?.signingCertificate?.sha1)
                    #expect(row?.string("identifier") == slice.codeSignature?.identifier)
                }
            }
        }
        let archive = rows.filter { $0.string("build_path") == tree + "/Signed.xcarchive" }
        #expect(archive.contains { $0.string("kind") == "dsym" && $0.string("uuid") != nil })
        let signedMain = try #require(rows.first { $0.string("build_path") == tree + "/Signed.app" && $0.string("role") == "main" })
        #expect(signedMain.string("cdhash")?.count == 40 && signedMain.string("certificate_sha1") != nil)
        #expect(signedMain.string("team_id") != nil && signedMain.string("certificate_name") != nil)
        let unsigned = try #require(rows.first { $0.string("build_path") == tree + "/Unsigned.app" && $0.string("role") == "main" })
        #expect(unsigned.string("cdhash") == nil && unsigned.string("uuid") != nil)
        #expect(rows.allSatisfy { row in row.string("uuid").map { MachOFile.canonicalUUID($0) == $0 } ?? true })

        // Unchanged: not re-read, the same rows. Read again (--full): replaced, never doubled.
        let second = try ingest([tree], db: db)
        #expect(second.filesDecoded == 0)
        #expect(try Self.rows(db).map { $0.int64("id") } == rows.map { $0.int64("id") })
        try ingest([tree], db: db, full: true)
        let again = try Self.rows(db)
        #expect(again.count == rows.count)
        #expect(Set(again.compactMap { $0.int64("id") }).isDisjoint(with: rows.compactMap { $0.int64("id") }))
    }

    @Test func buildsCataloguedBeforeTheMigrationAreReadAgainOnce() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("codesign", to: "codesign")
        let db = scratch.file("catalog.sqlite")
        try ingest([tree], db: db)
        let expected = try Self.rows(db).count
        #expect(expected > 0)
        // Back to schema 17 as an older binary left it: no binaries table, every stamp recorded.
        do {
            let connection = try Connection.openCatalogue(path: db)
            try BuildLaunchLimitIngestTests.undoMigration23(connection)
            try BuildLaunchLimitIngestTests.undoMigration22(connection)
            try BuildLaunchLimitIngestTests.undoMigration21(connection)
            try BuildLaunchLimitIngestTests.undoMigration20(connection)
            try BuildSigningIngestTests.undoMigration19(connection)
            try connection.execute("DROP TABLE build_binaries")
            try connection.execute("DELETE FROM schema_migrations WHERE id = 18")
        }
        let before = try Connection.openCatalogue(path: db)
        #expect(try before.count("SELECT count(*) AS n FROM files WHERE kind IN ('app', 'ipa', 'xcarchive')") == 0)
        #expect(try before.count("SELECT count(*) AS n FROM build_binaries") == 0)
        let report = try ingest([tree], db: db)
        #expect(report.filesDecoded > 0 && report.buildsNew == 0)
        #expect(try Self.rows(db).count == expected)
        #expect(try ingest([tree], db: db).filesDecoded == 0)
    }
}
