import CatalogCore
import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogIngest
@testable import CatalogStore

/// A build's signing facts as the catalogue keeps them (migration 0019): the executables, dSYMs and
/// signing problems the ingest read, given back by the build queries as decode finds them, the
/// dated problems only at a date after theirs; filled in for builds catalogued before.
@Suite struct BuildSigningIngestTests {
    /// Before the fixture profile `Example App AdHoc` expires (2026-12-01), and after.
    static let before = ISO8601.parse("2026-09-01T00:00:00Z")!
    static let after = ISO8601.parse("2026-12-20T00:00:00Z")!

    /// Back from schema 19 to 18, as a binary of 0018 left the catalogue (every stamp recorded).
    static func undoMigration19(_ connection: Connection) throws {
        try connection.execute("DROP TABLE build_signing_problems")
        try connection.execute("ALTER TABLE build_binaries DROP COLUMN entitlements")
        try connection.execute("ALTER TABLE build_binaries DROP COLUMN error")
        try connection.execute("ALTER TABLE builds DROP COLUMN signing_checked")
        try connection.execute("DELETE FROM schema_migrations WHERE id = 19")
    }

    static func builds(_ db: String, asOf: Date) throws -> [BuildSummary] {
        var filter = CatalogQueries.BuildFilter()
        filter.now = asOf
        filter.presence = .any
        return try CatalogQueries(try Connection.openCatalogue(path: db, readOnly: true)).builds(filter)
    }

    /// What decode gives for the build at `path` (inside its container at `appPath`), at `asOf`,
    /// trusting Apple's roots as ingest does.
    static func decoded(_ build: BuildSummary, asOf: Date) throws -> (problems: [SigningProblem], executables: Int, dsyms: Int) {
        let artifact = try decodedBuild(build, trust: .apple)
        return (artifact.signingProblems(asOf: asOf), artifact.executables.count, artifact.dsyms.count)
    }

    @Test func theBuildQueriesGiveWhatDecodeFindsAtEachDate() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("codesign", to: "codesign")
        let db = scratch.file("catalog.sqlite")
        // One build per batch: a build whose embedded profile another batch decoded is checked too.
        try ingest([tree], db: db, batchSize: 1)
        for date in [Self.before, Self.after] {
            let builds = try Self.builds(db, asOf: date)
            #expect(builds.count >= 14)
            for build in builds {
                let signing = try #require(build.signing, "\(build.path)")
                let expected = try Self.decoded(build, asOf: date)
                #expect(signing.problems.map(\.code) == expected.problems.map(\.code), "\(build.path) at \(date)")
                #expect(signing.problems.map(\.message) == expected.problems.map(\.message), "\(build.path)")
                #expect(signing.executables.count == expected.executables && signing.dsyms.count == expected.dsyms, "\(build.path)")
            }
        }
        func build(_ name: String, _ date: Date) throws -> BuildSigning {
            try #require(try Self.builds(db, asOf: date).first { $0.path == tree + "/" + name }?.signing, "\(name)")
        }
        // Ingest trusts Apple's roots only: every executable the fixtures' CA signed says so, before
        // any other problem; the checks below are about the others.
        func problems(_ name: String, _ date: Date) throws -> [SigningProblem] {
            try build(name, date).problems.filter { $0.code != .certificateNotApple }
        }
        #expect(try build("Signed.app", Self.before).problems.map(\.code) == Array(repeating: .certificateNotApple, count: 6))
        #expect(try build("Signed.app", Self.before).firstProblem == .certificateNotApple)
        // Dated: the profile's expiry holds only after it.
        #expect(try problems("Signed.app", Self.before).isEmpty)
        // The app's and its widget's profiles.
        #expect(try problems("Signed.app", Self.after).map(\.code) == [.profileExpired, .profileExpired])
        let expiry = ISO8601.parse("2026-12-01T10:00:00Z")
        #expect(try problems("Signed.app", Self.after).first?.date == expiry)
        #expect(try problems("Debuggable.app", Self.before).first?.code == .getTaskAllowMismatch)
        #expect(try problems("Debuggable.app", Self.after).first?.code == .profileExpired)
        // What the executables were signed with.
        let archive = try build("Signed.xcarchive", Self.before)
        #expect(archive.mainCertificateName == "Apple Distribution: Example Corp (TEAM123456)")
        #expect(archive.dsyms.count == 2 && archive.dsyms.allSatisfy { $0.role == nil && !$0.architectures.isEmpty })
        let main = try #require(archive.executables.first)
        #expect(main.role == .main && main.signature?.cdhash?.count == 40)
        #expect(main.signature?.entitlements["get-task-allow"] == .bool(false))
        let unsigned = try build("Unsigned.app", Self.before)
        #expect(unsigned.executables.first?.signature == nil && unsigned.firstProblem == .unsigned)
        #expect(unsigned.mainCertificateName == nil)
    }

    @Test func buildsCataloguedAtSchema18AreFilledInByTheNextIngest() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("codesign", to: "codesign")
        let db = scratch.file("catalog.sqlite")
        try ingest([tree], db: db)
        let expected = try Self.builds(db, asOf: Self.after).map(\.signing)
        #expect(expected.contains { $0?.problems.isEmpty == false })
        // Migration 0020 came after: undone first, as the migrator applies only what is past the latest.
        do {
            let connection = try Connection.openCatalogue(path: db)
            try BuildLaunchLimitIngestTests.undoMigration23(connection)
            try BuildLaunchLimitIngestTests.undoMigration22(connection)
            try BuildLaunchLimitIngestTests.undoMigration21(connection)
            try BuildLaunchLimitIngestTests.undoMigration20(connection)
            try Self.undoMigration19(connection)
        }

        // Migrated again: nothing judged until the builds are read again, and they will be.
        let migrated = try Connection.openCatalogue(path: db)
        #expect(try migrated.count("SELECT count(*) AS n FROM files WHERE kind IN ('app', 'ipa', 'xcarchive')") == 0)
        #expect(try Self.builds(db, asOf: Self.after).allSatisfy { $0.signing == nil })
        let report = try ingest([tree], db: db)
        #expect(report.filesDecoded > 0 && report.buildsNew == 0)
        #expect(try Self.builds(db, asOf: Self.after).map(\.signing) == expected)
        #expect(try ingest([tree], db: db).filesDecoded == 0)
    }

    @Test func aRewrittenBuildReplacesItsProblems() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("codesign", to: "codesign")
        let db = scratch.file("catalog.sqlite")
        try ingest([tree], db: db)
        let count = { try Connection.openCatalogue(path: db, readOnly: true).count("SELECT count(*) AS n FROM build_signing_problems") }
        let first = try count()
        #expect(first > 0)
        try ingest([tree], db: db, full: true)
        #expect(try count() == first)
    }
}
