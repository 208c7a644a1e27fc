import Foundation
import Testing
@testable import CatalogIngest
@testable import CatalogStore
import CatalogTestSupport

/// Issue "catalogue + ingester": a second run reads only what changed, removals are marked (never
/// deleted), moves and copies are locations of one profile, and `--full` reads everything again.
@Suite(.timeLimit(.minutes(10))) struct IncrementalIngestTests {
    /// A copy of Fixtures without `malformed/`: files that failed to decode are deliberately tried
    /// again on every run (see `filesThatFailedAreTriedAgain`), so they are left out here.
    private func goodTree(_ scratch: Scratch) throws -> String {
        let tree = try scratch.copyFixtures()
        try FileManager.default.removeItem(atPath: tree + "/malformed")
        return tree
    }

    @Test func aSecondRunReadsNothing() throws {
        let scratch = try Scratch()
        let tree = try goodTree(scratch)
        let db = scratch.file("catalog.sqlite")
        let first = try ingest([tree], db: db)
        #expect(first.filesDecoded > 0)
        let before = try canonicalDump(db)

        let second = try ingest([tree], db: db)
        #expect(second.filesDecoded == 0)
        #expect(second.filesUnchanged == second.filesScanned)
        #expect(second.filesScanned == first.filesScanned)
        #expect(second.profilesNew == 0 && second.profilesRemoved == 0 && second.buildsNew == 0)
        #expect(try canonicalDump(db) == before)
    }

    /// The ingester's choice: a file recorded with status 'error' is read again even when unchanged,
    /// so every run reports the problems still present (ingest_errors of the latest run is current).
    @Test func filesThatFailedAreTriedAgain() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures()
        let db = scratch.file("catalog.sqlite")
        try ingest([tree], db: db)
        let failed = try Connection.openCatalogue(path: db, readOnly: true)
            .count("SELECT count(*) AS n FROM files WHERE status = 'error'")
        #expect(failed >= 8)
        let second = try ingest([tree], db: db)
        #expect(second.filesDecoded == failed)
        #expect(second.errors.count == failed)
        #expect(second.filesUnchanged == second.filesScanned - failed)
    }

    @Test func touchingOneFileRereadsExactlyThatOne() throws {
        let scratch = try Scratch()
        let tree = try goodTree(scratch)
        let db = scratch.file("catalog.sqlite")
        try ingest([tree], db: db)
        let profile = tree + "/profiles/ios-development.mobileprovision"
        try setModificationTime(profile, seconds: 1_900_000_000, nanoseconds: 123)
        let report = try ingest([tree], db: db)
        #expect(report.filesUnchanged == report.filesScanned - 1)
        // Its bytes are already catalogued, so it is hashed, not decoded again; the index moves on.
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        #expect(try connection.strings("SELECT mtime_ns FROM files WHERE path = ?", [.text(profile)])
                == ["1900000000000000123"])
        #expect(try connection.strings("SELECT path FROM files WHERE last_run_id = ?", [.integer(report.runID)])
                == [profile])

        // A touched bundle is decoded again (builds are always decoded).
        let plist = tree + "/bundles/ExampleMac.app/Contents/Info.plist"
        try setModificationTime(plist, seconds: 1_900_000_000)
        let third = try ingest([tree], db: db)
        #expect(third.filesDecoded == 1)
        #expect(third.filesUnchanged == third.filesScanned - 1)
    }

    @Test func deletingTheOnlyCopyMarksTheProfileRemoved() throws {
        let scratch = try Scratch()
        let tree = try goodTree(scratch)
        let db = scratch.file("catalog.sqlite")
        try ingest([tree], db: db)
        let profile = tree + "/profiles/ios-development.mobileprovision"
        let uuid = try Connection.openCatalogue(path: db, readOnly: true)
            .strings("SELECT profile_uuid FROM profile_locations WHERE path = ?", [.text(profile)])
        #expect(uuid.count == 1)

        try FileManager.default.removeItem(atPath: profile)
        let report = try ingest([tree], db: db)
        #expect(report.profilesRemoved == 1)
        #expect(report.filesDecoded == 0)
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        #expect(try connection.strings("SELECT removed_at IS NOT NULL FROM profile_locations WHERE path = ?",
                                       [.text(profile)]) == ["1"])
        #expect(try connection.count("SELECT count(*) AS n FROM profiles WHERE uuid = ?", [.text(uuid[0])]) == 1)
        #expect(try connection.count("SELECT profiles_removed AS n FROM ingest_runs WHERE id = ?",
                                     [.integer(report.runID)]) == 1)

        // Putting it back clears removed_at.
        try FileManager.default.copyItem(atPath: IngestPaths.fixtures + "/profiles/ios-development.mobileprovision",
                                         toPath: profile)
        try ingest([tree], db: db)
        #expect(try Connection.openCatalogue(path: db, readOnly: true)
            .strings("SELECT removed_at IS NULL FROM profile_locations WHERE path = ?", [.text(profile)]) == ["1"])
    }

    @Test func deletingOneOfTwoCopiesRemovesNoProfile() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures()
        let db = scratch.file("catalog.sqlite")
        try ingest([tree], db: db)
        // ios-adhoc is also embedded in Example.app: the standalone copy going leaves it present.
        let profile = tree + "/profiles/ios-adhoc.mobileprovision"
        try FileManager.default.removeItem(atPath: profile)
        let report = try ingest([tree], db: db)
        #expect(report.profilesRemoved == 0)
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        #expect(try connection.strings("SELECT removed_at IS NOT NULL FROM profile_locations WHERE path = ?",
                                       [.text(profile)]) == ["1"])
    }

    @Test func renamingAFileMovesItsLocation() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures()
        let db = scratch.file("catalog.sqlite")
        try ingest([tree], db: db)
        let old = tree + "/profiles/tvos-appstore.mobileprovision"
        let new = tree + "/profiles/renamed/tvOS.mobileprovision"
        try FileManager.default.createDirectory(atPath: tree + "/profiles/renamed", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: old, toPath: new)
        let report = try ingest([tree], db: db)
        #expect(report.profilesRemoved == 0)
        #expect(report.profilesNew == 0)
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        let rows = try connection.query("""
            SELECT path, profile_uuid, removed_at IS NULL AS live FROM profile_locations WHERE path IN (?, ?) ORDER BY path
            """, [.text(old), .text(new)])
        #expect(rows.count == 2)
        #expect(Set(rows.map { $0.string("profile_uuid") ?? "" }).count == 1)
        #expect(rows.first { $0.string("path") == old }?.int("live") == 0)
        #expect(rows.first { $0.string("path") == new }?.int("live") == 1)
        #expect(try connection.count("SELECT count(*) AS n FROM files WHERE path = ?", [.text(old)]) == 0)
    }

    @Test func theSameUUIDAtTwoPathsIsOneProfileWithTwoLocations() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("profiles", to: "tree/a")
        let db = scratch.file("catalog.sqlite")
        try ingest([scratch.file("tree")], db: db)
        try scratch.copy(IngestPaths.fixtures + "/profiles/wildcard.mobileprovision", to: "tree/b/copy.mobileprovision")
        let report = try ingest([scratch.file("tree")], db: db)
        #expect(report.profilesNew == 0)
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        let uuids = try connection.strings("SELECT profile_uuid FROM profile_locations WHERE path IN (?, ?)",
                                           [.text(tree + "/wildcard.mobileprovision"),
                                            .text(scratch.file("tree/b/copy.mobileprovision"))])
        #expect(uuids.count == 2)
        #expect(Set(uuids).count == 1)
        #expect(try connection.count("SELECT count(*) AS n FROM profiles WHERE uuid = ?", [.text(uuids[0])]) == 1)
    }

    @Test(arguments: [256, 1])
    func identicalContentAtTwoPathsInOneRunIsDecodedOnce(batchSize: Int) throws {
        let scratch = try Scratch()
        let source = IngestPaths.fixtures + "/profiles/ios-enterprise.mobileprovision"
        try scratch.copy(source, to: "tree/one.mobileprovision")
        try scratch.copy(source, to: "tree/two.mobileprovision")
        try scratch.copy(source, to: "tree/sub/three.mobileprovision")
        let db = scratch.file("catalog.sqlite")
        let report = try ingest([scratch.file("tree")], db: db, batchSize: batchSize)
        #expect(report.filesScanned == 3)
        #expect(report.filesDecoded == 1)
        #expect(report.profilesNew == 1)
        #expect(report.errors.isEmpty)
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        #expect(try connection.count("SELECT count(*) AS n FROM profiles") == 1)
        #expect(try connection.count("SELECT count(*) AS n FROM profile_locations WHERE removed_at IS NULL") == 3)
        #expect(try connection.count("SELECT count(*) AS n FROM files WHERE status = 'ok' AND sha256 IS NOT NULL") == 3)
    }

    /// Bundles and standalone files sharing profiles, in batches of every small size: whichever
    /// batch or thread decodes a shared profile, every build links it and nothing is an error.
    @Test(arguments: [1, 2, 3, 5])
    func sharedProfilesAcrossBatchesAreDecodedOnceAndLinked(batchSize: Int) throws {
        let scratch = try Scratch()
        try scratch.copyFixtures("bundles", to: "tree/a-bundles")
        try scratch.copyFixtures("profiles", to: "tree/b-profiles")
        try scratch.copyFixtures("bundles", to: "tree/c-bundles-again")
        let db = scratch.file("catalog.sqlite")
        let report = try ingest([scratch.file("tree")], db: db, batchSize: batchSize)
        #expect(report.errors.isEmpty, "\(report.errors)")
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        #expect(try connection.count("SELECT count(*) AS n FROM builds WHERE profile_uuid IS NULL") == 0)
        #expect(try connection.count("SELECT count(*) AS n FROM builds WHERE path LIKE '%.appex' AND parent_build_id IS NULL") == 0)
        // Every profile content was decoded once: one profile row per distinct file content.
        #expect(try connection.count("SELECT count(*) AS n FROM profiles") == report.profilesNew + report.profilesRenewed)
    }

    /// A profile file whose content a build embeds counts as decoded whether the build or the file
    /// comes first in the walk: in batches of one, the first in walk order is the one that decodes
    /// the content, so before, the count changed with the order (and, in larger batches, with
    /// which thread claimed the content first).
    @Test func theDecodedCountDoesNotDependOnWhichCopyCameFirst() throws {
        var counts: [Int] = []
        for (bundles, profiles) in [("a-bundles", "b-profiles"), ("b-bundles", "a-profiles")] {
            let scratch = try Scratch()
            try scratch.copyFixtures("bundles", to: "tree/" + bundles)
            try scratch.copyFixtures("profiles", to: "tree/" + profiles)
            let report = try ingest([scratch.file("tree")], db: scratch.file("catalog.sqlite"), batchSize: 1)
            #expect(report.errors.isEmpty, "\(report.errors)")
            counts.append(report.filesDecoded)
        }
        #expect(counts[0] == counts[1], "files decoded with the bundles first, then with the profiles first: \(counts)")
        #expect(counts[0] > 0)
    }

    @Test func fullRereadsEverything() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures()
        let db = scratch.file("catalog.sqlite")
        let first = try ingest([tree], db: db)
        let before = try canonicalDump(db)
        // A stored field gone stale (as after a decoder fix) is rewritten by --full, not kept
        // because the file's bytes are unchanged.
        do {
            let writable = try Connection.openCatalogue(path: db)
            try writable.execute("UPDATE profiles SET kind = 'enterprise', device_count = 999")
            try writable.execute("DELETE FROM entitlements")
        }
        let full = try ingest([tree], db: db, full: true)
        #expect(full.filesUnchanged == 0)
        #expect(full.filesScanned == first.filesScanned)
        #expect(full.filesDecoded > 0)
        // Every indexed file was read by the full run (its index entry carries that run's id).
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        #expect(try connection.count("SELECT count(*) AS n FROM files WHERE last_run_id <> ?", [.integer(full.runID)]) == 0)
        #expect(try connection.count("SELECT count(*) AS n FROM files") > 0)
        #expect(try canonicalDump(db) == before)
        #expect(try connection.count("SELECT count(*) AS n FROM profiles WHERE device_count = 999") == 0)
        #expect(try connection.count("SELECT count(*) AS n FROM entitlements") > 0)
    }
}
