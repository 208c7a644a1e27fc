import CatalogTestSupport
import Foundation
import Testing
import CatalogIngest
@testable import CatalogStore

/// A run into an empty catalogue neither looks for removed files nor marks what it wrote as seen
/// again (issue 15): both would only read back the rows it wrote at the run's time. What it leaves
/// must be what a run that does both leaves.
@Suite(.timeLimit(.minutes(10))) struct FirstIngestBookkeepingTests {
    @Test func aFirstIngestHoldsWhatARunThatLooksForRemovalsHolds() throws {
        let scratch = try Scratch()
        let fixtures = try scratch.copyFixtures()
        let first = scratch.file("first.sqlite")
        let report = try ingest([fixtures], db: first)
        #expect(report.profilesNew > 20 && report.buildsSeen > 5, "\(report)")
        #expect(report.profilesRemoved == 0 && report.buildsRemoved == 0)

        // The same tree into a catalogue that already holds one profile from another folder: this
        // run looks for removals under the root and marks its rows seen.
        let seed = scratch.file("seed")
        try FileManager.default.createDirectory(atPath: seed, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixtures + "/profiles/bare-plist.mobileprovision",
                                         toPath: seed + "/seed.mobileprovision")
        let seeded = scratch.file("seeded.sqlite")
        try ingest([seed], db: seeded)
        let second = try ingest([fixtures], db: seeded)
        #expect(second.profilesRemoved == 0 && second.buildsRemoved == 0)
        #expect(try canonicalDump(first) == canonicalDump(seeded).filter { !$0.contains(seed) })

        // Every row the first run wrote is present and was last seen when it was first seen: at
        // the run's time, which is what marking them seen would have written.
        let connection = try Connection(path: first, readOnly: true, wal: false)
        let started = try #require(try connection.strings("SELECT started_at FROM ingest_runs").first)
        for table in ["profile_locations", "builds"] {
            #expect(try connection.count("SELECT count(*) AS n FROM \(table)") > 0)
            #expect(try connection.count("""
                SELECT count(*) AS n FROM \(table)
                WHERE removed_at IS NOT NULL OR last_seen IS NOT first_seen OR last_seen IS NOT ?
                """, [.text(started)]) == 0, "\(table)")
        }
    }
}
