import CatalogTestSupport
import Foundation
import Testing
import CatalogIngest
@testable import CatalogStore

/// A first ingest builds the secondary indexes once, after the rows (issue 15): the catalogue it
/// leaves has exactly the schema a migrated catalogue has, and a first ingest killed half way leaves
/// the indexes it dropped in place (the drop was part of the rolled-back transaction). It checks the
/// references once, at the end, rather than row by row.
@Suite(.timeLimit(.minutes(10))) struct DeferredIndexTests {
    /// Every table and index definition, by name.
    static func schema(_ path: String) throws -> [[SQLValue]] {
        try Connection(path: path, readOnly: true, wal: false)
            .query("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name").map(\.values)
    }

    @Test func aFirstIngestLeavesTheSchemaAMigratedCatalogueHas() throws {
        let scratch = try Scratch()
        let migrated = scratch.file("migrated.sqlite")
        _ = try Connection.openCatalogue(path: migrated)
        let ingested = scratch.file("ingested.sqlite")
        let report = try ingest([try scratch.copyFixtures()], db: ingested)
        #expect(report.profilesNew > 20)
        let expected = try Self.schema(migrated)
        #expect(expected.contains { $0.first == .text("index") && $0[1] == .text("profiles_supersession") })
        #expect(try Self.schema(ingested) == expected)
        // The indexes are used again once built: a lookup by team is an index search.
        let plan = try Connection(path: ingested, readOnly: true, wal: false)
            .query("EXPLAIN QUERY PLAN SELECT uuid FROM profiles WHERE team_id = 'X'")
        #expect(plan.contains { ($0.string("detail") ?? "").hasPrefix("SEARCH profiles USING") }, "\(plan)")
    }

    @Test(.enabled(if: CatalogBinary.isAvailable, "the catalog binary was not found (run `swift build`)"))
    func aKilledFirstIngestLeavesTheIndexesInPlace() throws {
        let scratch = try Scratch()
        let tree = try scratch.makeFixtureTree(copies: 1, profileVariants: 10)
        let migrated = scratch.file("migrated.sqlite")
        _ = try Connection.openCatalogue(path: migrated)
        for writes in [1, 25] {
            let db = scratch.file("killed-\(writes).sqlite")
            try FileManager.default.copyItem(atPath: migrated, toPath: db)
            let killed = try CatalogBinary.run(["ingest", tree, "--db", db, "--quiet"],
                                               environment: ["CATALOG_TEST_KILL_AFTER_WRITES": String(writes)])
            #expect(killed.signalled && killed.status == SIGKILL, "not killed after \(writes) writes (status \(killed.status))")
            _ = try Connection(path: db, readOnly: false, wal: false)  // recovers the WAL, as the next ingest would
            #expect(try Self.schema(db) == Self.schema(migrated), "killed after \(writes) writes")
        }
    }

    /// Into an empty catalogue the run's references are checked once before it commits: a dangling
    /// one fails the run and leaves nothing, and the connection enforces them row by row again after
    /// the run, whichever way it ended.
    @Test func aFirstIngestChecksReferencesOnceAndEnforcesThemAfterwards() throws {
        let scratch = try Scratch()
        let connection = try Connection.openCatalogue(path: scratch.file("catalog.sqlite"))
        let catalogue = Catalogue(connection)
        do {
            try catalogue.writeRun {
                try connection.execute("INSERT INTO entitlements (profile_id, key, value_json) VALUES (999999, 'k', '1')")
            }
            Issue.record("a run that left a dangling reference was committed")
        } catch {
            #expect("\(error)".contains("FOREIGN KEY constraint failed: a row of entitlements refers to a missing row of profiles"), "\(error)")
        }
        #expect(try connection.count("SELECT count(*) AS n FROM entitlements") == 0)
        #expect(try connection.queryFirst("PRAGMA foreign_keys")?[0] == .integer(1))

        let report = try Ingester(catalogue: catalogue, options: IngestOptions(roots: [try scratch.copyFixtures()])).run()
        #expect(report.profilesNew > 20)
        #expect(try connection.queryFirst("PRAGMA foreign_keys")?[0] == .integer(1))
        #expect(try connection.queryFirst("PRAGMA foreign_key_check") == nil)
    }

    /// The device lists, entitlements and stored plists are checked by range when the parents' ids are 1…n: a list
    /// of a device past the last, below the first or stored as text, or a row of a missing profile, fails the run
    /// as the row-by-row check would; with a gap in the devices' ids, the row-by-row check decides.
    @Test func rangeCheckedReferencesFailAsTheRowByRowCheckWould() throws {
        let cases: [(setup: [String], dangling: String?, parent: String)] = [
            ([], "INSERT INTO device_profiles (device_id, first_profile_id, profile_ids) VALUES (3, 1, '[1]')", "devices"),
            ([], "INSERT INTO device_profiles (device_id, first_profile_id, profile_ids) VALUES (0, 1, '[1]')", "devices"),
            ([], "INSERT INTO device_profiles (device_id, first_profile_id, profile_ids) VALUES ('x', 1, '[1]')", "devices"),
            ([], "INSERT INTO entitlements (profile_id, key, value_json) VALUES (2, 'k', '1')", "profiles"),
            ([], "INSERT INTO profile_plists (profile_id, raw_plist) VALUES (2, x'00')", "profiles"),
            // Device ids 1, 2 and 4: not 1…n, so every row is looked up, and 3 is missing.
            (["INSERT INTO devices (id, udid, first_seen) VALUES (4, 'D4', '2026-01-01T00:00:00Z')"],
             "INSERT INTO device_profiles (device_id, first_profile_id, profile_ids) VALUES (3, 1, '[1]')", "devices"),
            (["INSERT INTO devices (id, udid, first_seen) VALUES (4, 'D4', '2026-01-01T00:00:00Z')"], nil, ""),
        ]
        for (index, (setup, dangling, parent)) in cases.enumerated() {
            let scratch = try Scratch()
            let connection = try Connection.openCatalogue(path: scratch.file("catalog.sqlite"))
            let profile = Self.minimalProfileInsert()
            let statements = [profile,
                              "INSERT INTO devices (id, udid, first_seen) VALUES (1, 'D1', '2026-01-01T00:00:00Z')",
                              "INSERT INTO devices (id, udid, first_seen) VALUES (2, 'D2', '2026-01-01T00:00:00Z')",
                              "INSERT INTO device_profiles (device_id, first_profile_id, profile_ids) VALUES (2, 1, '[1]')",
                              "INSERT INTO entitlements (profile_id, key, value_json) VALUES (1, 'k', '1')",
                              "INSERT INTO profile_plists (profile_id, raw_plist) VALUES (1, x'00')"]
                + setup + (dangling.map { [$0] } ?? [])
            do {
                try Catalogue(connection).writeRun { for sql in statements { try connection.execute(sql) } }
                #expect(dangling == nil, "case \(index): a run that left a dangling reference was committed")
            } catch {
                #expect(dangling != nil, "case \(index): \(error)")
                #expect("\(error)".contains("refers to a missing row of \(parent)"), "case \(index): \(error)")
            }
        }
    }

    /// A profile row with id 1 and only the columns that must be set.
    static func minimalProfileInsert() -> String {
        """
        INSERT INTO profiles (id, uuid, name, kind, creation_date, expiration_date, effective_expiration_date,
            expiry_cause, sha256, first_seen, last_seen)
        VALUES (1, 'U1', 'P', 'development', '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z', '2027-01-01T00:00:00Z',
            'profile', 'aa', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')
        """
    }
}
