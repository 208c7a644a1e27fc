import CatalogCore
import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogIngest
@testable import CatalogStore

/// When a build stops launching, as the catalogue keeps it (migration 0020): the limit the ingest
/// judged (``LaunchLimit``) is what decode judges, also for a build whose embedded profile another
/// batch decoded, and builds catalogued before are filled in by the next ingest.
@Suite struct BuildLaunchLimitIngestTests {
    /// Back from schema 20 to 19, as a binary of 0019 left the catalogue (every stamp recorded).
    /// Migration 0021 (runs' reason and partial), undone first: the migrator applies only what is
    /// past the latest migration recorded.
    /// 0023 widened two CHECKs (the older ones still hold for all but zip builds) and dropped file
    /// stamps: undone by forgetting it was applied, the zips of an app stamped as an older binary
    /// left them (skipped). Their rows are kept, so that what the next ingest reads compares.
    static func undoMigration23(_ connection: Connection) throws {
        try connection.execute("""
            UPDATE files SET status = 'skipped' WHERE kind = 'zip' AND path IN (SELECT path FROM builds WHERE source_kind = 'zip')
            """)
        try connection.execute("DELETE FROM schema_migrations WHERE id = 23")
    }

    static func undoMigration22(_ connection: Connection) throws {
        try connection.execute("DROP TABLE debug_symbols")
        try connection.execute("DELETE FROM schema_migrations WHERE id = 22")
    }

    static func undoMigration21(_ connection: Connection) throws {
        for column in ["reason", "partial"] { try connection.execute("ALTER TABLE ingest_runs DROP COLUMN \(column)") }
        try connection.execute("DELETE FROM schema_migrations WHERE id = 21")
    }

    static func undoMigration20(_ connection: Connection) throws {
        for column in ["launches_until", "launches_until_cause", "launches_until_executable", "launches_until_reason"] {
            try connection.execute("ALTER TABLE builds DROP COLUMN \(column)")
        }
        try connection.execute("DELETE FROM schema_migrations WHERE id = 20")
    }

    static func builds(_ db: String) throws -> [BuildSummary] {
        var filter = CatalogQueries.BuildFilter()
        filter.presence = .any
        return try CatalogQueries(try Connection.openCatalogue(path: db, readOnly: true)).builds(filter)
    }

    /// The stored limit's four facts.
    static func stored(_ build: BuildSummary) -> [String?] {
        [build.launchesUntil.map(ISO8601.format), build.launchesUntilCause?.rawValue, build.launchesUntilExecutable,
         build.launchesUntilReason]
    }

    /// What decode judges for the build at `path`.
    static func decoded(_ build: BuildSummary) throws -> [String?] {
        let limit = try decodedBuild(build, trust: nil).launchLimit
        return [limit?.date.map(ISO8601.format), limit?.cause.rawValue, limit?.executable, limit?.reason]
    }

    /// `codesign/` and `bundles/` in a catalogue of their own, one build per batch so that most builds'
    /// embedded profiles were decoded by an earlier batch.
    static func catalogue(_ scratch: Scratch) throws -> (db: String, trees: [String]) {
        let trees = [try scratch.copyFixtures("codesign", to: "codesign"), try scratch.copyFixtures("bundles", to: "bundles")]
        let db = scratch.file("catalog.sqlite")
        try ingest(trees, db: db, batchSize: 1)
        return (db, trees)
    }

    @Test func eachBuildKeepsTheLimitDecodeJudges() throws {
        let scratch = try Scratch()
        let (db, _) = try Self.catalogue(scratch)
        let builds = try Self.builds(db)
        #expect(builds.count >= 20)
        for build in builds {
            #expect(Self.stored(build) == (try Self.decoded(build)), "\(build.path)")
        }
        func build(_ suffix: String) throws -> BuildSummary {
            try #require(builds.first { $0.path.hasSuffix(suffix) }, "\(suffix)")
        }
        // The certificate that signed the code, before the development profile's expiry.
        let expired = try build("/codesign/ExpiredCertificate.app")
        #expect(expired.launchesUntilCause == .certificate && expired.launchesUntil == ISO8601.parse("2026-05-15T12:00:00Z"))
        // Nothing stops an App Store build.
        let store = try build("/bundles/Example.xcarchive")
        #expect(store.launchesUntil == nil && store.launchesUntilCause == .appStore && store.launchesUntilReason != nil)
        // Nothing is known of a build without a profile.
        let none = try build("/codesign/NoProfile.app")
        #expect(Self.stored(none).allSatisfy { $0 == nil })
        // Filters use the stored limit: an App Store build is never in a window, the certificate's date is.
        var window = CatalogQueries.BuildFilter()
        window.launchesFrom = ISO8601.parse("2026-05-01T00:00:00Z")
        window.launchesUntilBy = ISO8601.parse("2026-06-01T00:00:00Z")
        let inWindow = try CatalogQueries(try Connection.openCatalogue(path: db, readOnly: true)).builds(window)
        #expect(inWindow.map(\.path) == [expired.path])
    }

    @Test func buildsCataloguedAtSchema19AreFilledInByTheNextIngest() throws {
        let scratch = try Scratch()
        let (db, trees) = try Self.catalogue(scratch)
        let expected = try Self.builds(db).map(Self.stored)
        #expect(expected.contains { $0[1] == "certificate" } && expected.contains { $0[1] == "app-store" })
        let connection = try Connection.openCatalogue(path: db)
        try Self.undoMigration23(connection)
        try Self.undoMigration22(connection)
        try Self.undoMigration21(connection)
        try Self.undoMigration20(connection)

        // Migrated again: nothing known until the builds are read again, and they will be.
        let migrated = try Connection.openCatalogue(path: db)
        #expect(try migrated.count("SELECT count(*) AS n FROM files WHERE kind IN ('app', 'ipa', 'xcarchive')") == 0)
        #expect(try Self.builds(db).allSatisfy { Self.stored($0).allSatisfy { $0 == nil } })
        let report = try ingest(trees, db: db)
        #expect(report.filesDecoded > 0 && report.buildsNew == 0)
        #expect(try Self.builds(db).map(Self.stored) == expected)
        #expect(try ingest(trees, db: db).filesDecoded == 0)
    }
}
