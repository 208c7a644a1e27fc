import CatalogCore
import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// Migration 0017_device_postings (issue 15): a profile's devices are `profiles.device_ids`, and each
/// device's profiles are lists in `device_profiles`. The writer keeps both sides equal through new
/// profiles, updates that change the devices, rewrites that do not and a device listed twice; the
/// migration turns `profile_devices` rows into the same lists (and leaves a view of that name with
/// the same pairs), on SQLite and, with a test server, on PostgreSQL.
@Suite struct DeviceListsTests {
    private static let now = "2026-12-01T10:00:00Z"
    private static let date = Date(timeIntervalSince1970: 1_780_000_000)

    private static func profile(_ uuid: String, devices: [String], sha256: String) -> ProvisioningProfile {
        var profile = ProvisioningProfile(
            uuid: uuid, name: "Profile \(uuid)", appIDName: "App", applicationIdentifierPrefixes: ["TEAM000001"],
            teamIdentifiers: ["TEAM000001"], teamName: "Team", platforms: ["iOS"], creationDate: date,
            expirationDate: date.addingTimeInterval(365 * 86_400), devices: devices, provisionsAllDevices: false,
            xcodeManaged: false, ppqCheck: false, timeToLive: 365, version: 1, entitlements: PlistDictionary(),
            certificates: [], derEncodedProfile: nil, unknownKeys: PlistDictionary(), rawPlist: Array("<plist/>".utf8),
            envelopeCertificateCount: 0)
        profile.sha256 = sha256
        return profile
    }

    /// Each device's profiles, from `device_profiles`, as "UDID: UUID UUID…".
    private static func lists(_ db: Connection) throws -> [String] {
        try db.query("""
            SELECT d.udid || ': ' || group_concat(p.uuid, ' ') AS line FROM (
                SELECT dp.device_id, listed.value AS profile_id FROM device_profiles dp, json_each(dp.profile_ids) listed
                ORDER BY dp.device_id, listed.value) AS links
            JOIN devices d ON d.id = links.device_id JOIN profiles p ON p.id = links.profile_id
            GROUP BY d.udid ORDER BY d.udid
            """).compactMap { $0.string("line") }
    }

    /// A profile's devices, from `profiles.device_ids`, in the order it lists them.
    private static func listed(_ db: Connection, _ uuid: String) throws -> [String] {
        try db.query("""
            SELECT d.udid FROM profiles p, json_each(p.device_ids) listed, devices d
            WHERE p.uuid = ? AND d.id = listed.value ORDER BY listed.key
            """, [.text(uuid)]).compactMap { $0.string("udid") }
    }

    @Test func bothSidesFollowNewUpdatedAndRewrittenProfiles() throws {
        let folder = try TemporaryDirectory()
        let db = try Connection.openCatalogue(path: folder.path("catalog.sqlite"))
        let writer = CatalogWriter(db)
        #expect(try writer.upsertProfile(Self.profile("A", devices: ["D1", "D2"], sha256: "A1"), at: Self.date) == .new)
        // D3 twice: linked once.
        #expect(try writer.upsertProfile(Self.profile("B", devices: ["D3", "D2", "D3"], sha256: "B1"), at: Self.date) == .new)
        try writer.flushDeviceLinks()
        #expect(try Self.lists(db) == ["D1: A", "D2: A B", "D3: B"])
        #expect(try Self.listed(db, "B") == ["D3", "D2", "D3"])
        let queries = CatalogQueries(db)
        #expect(try queries.devices().map { "\($0.udid) \($0.profileCount)" } == ["D2 2", "D1 1", "D3 1"])
        #expect(try queries.profileDetail(uuid: "A")?.devices == ["D1", "D2"])

        // An update that drops D1 and adds D4: D1 is listed by no profile, its row goes.
        #expect(try writer.upsertProfile(Self.profile("A", devices: ["D4", "D2"], sha256: "A2"), at: Self.date) == .updated)
        try writer.flushDeviceLinks()
        #expect(try Self.lists(db) == ["D2: A B", "D3: B", "D4: A"])
        #expect(try Self.listed(db, "A") == ["D4", "D2"])
        #expect(try db.queryFirst("SELECT count(*) FROM device_profiles WHERE profile_ids = '[]'")?[0] == .integer(0))

        // A rewrite with the same devices (`ingest --full`) changes no list.
        let before = try db.query("SELECT * FROM device_profiles ORDER BY 1, 2").map(\.values)
        #expect(try writer.upsertProfile(Self.profile("A", devices: ["D4", "D2"], sha256: "A2"), at: Self.date,
                                         rewrite: true) == .updated)
        try writer.flushDeviceLinks()
        #expect(try db.query("SELECT * FROM device_profiles ORDER BY 1, 2").map(\.values) == before)

        // A profile linked in one batch, updated before the batch is written: the lists are right.
        #expect(try writer.upsertProfile(Self.profile("C", devices: ["D1"], sha256: "C1"), at: Self.date) == .new)
        #expect(try writer.upsertProfile(Self.profile("C", devices: ["D2"], sha256: "C2"), at: Self.date) == .updated)
        try writer.flushDeviceLinks()
        #expect(try Self.lists(db) == ["D2: A B C", "D3: B", "D4: A"])
        #expect(try queries.devices().map { "\($0.udid) \($0.profileCount)" } == ["D2 3", "D3 1", "D4 1", "D1 0"])
    }

    @Test func sqliteLinksBecomeListsOnBothSides() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("catalogue.sqlite")
        do {
            let migration = try #require(Migration.all.firstIndex { $0.name == "device_postings" })
            let old = try Connection(path: path)
            try Migrator(migrations: Array(Migration.all.prefix(migration))).migrate(old)
            try old.executeScript("""
                INSERT INTO profiles (id, uuid, name, kind, creation_date, expiration_date, effective_expiration_date,
                                      expiry_cause, sha256, first_seen, last_seen)
                VALUES (7, 'P-1', 'One', 'development', '\(Self.now)', '\(Self.now)', '\(Self.now)', 'profile', 'AB',
                        '\(Self.now)', '\(Self.now)'),
                       (9, 'P-2', 'Two', 'development', '\(Self.now)', '\(Self.now)', '\(Self.now)', 'profile', 'CD',
                        '\(Self.now)', '\(Self.now)'),
                       (11, 'P-3', 'Three', 'app-store', '\(Self.now)', '\(Self.now)', '\(Self.now)', 'profile', 'EF',
                        '\(Self.now)', '\(Self.now)');
                INSERT INTO devices (id, udid, first_seen) VALUES (1, 'D-1', '\(Self.now)'), (2, 'D-2', '\(Self.now)'),
                                                                   (3, 'D-3', '\(Self.now)');
                INSERT INTO profile_devices (profile_id, device_id) VALUES (7, 2), (7, 1), (9, 2), (9, 3);
                """)
        }
        let connection = try Connection.openCatalogue(path: path)
        #expect(try connection.queryFirst("PRAGMA foreign_key_check") == nil)
        #expect(try connection.queryFirst("PRAGMA integrity_check")?[0] == .text("ok"))
        #expect(try connection.query("SELECT type FROM sqlite_master WHERE name = 'profile_devices'").map(\.values)
                == [[.text("view")]])
        #expect(try connection.query("SELECT profile_id, device_id FROM profile_devices ORDER BY 1, 2").map(\.values)
                == [[.integer(7), .integer(1)], [.integer(7), .integer(2)], [.integer(9), .integer(2)], [.integer(9), .integer(3)]])
        #expect(try connection.query("SELECT id, device_ids FROM profiles ORDER BY id").map(\.values)
                == [[.integer(7), .text("[1,2]")], [.integer(9), .text("[2,3]")], [.integer(11), .null]])
        #expect(try connection.query("SELECT * FROM device_profiles ORDER BY device_id").map(\.values) == [
            [.integer(1), .integer(7), .text("[7]")], [.integer(2), .integer(7), .text("[7,9]")],
            [.integer(3), .integer(9), .text("[9]")],
        ])
        #expect(try CatalogQueries(connection).devices().map { "\($0.udid) \($0.profileCount)" }
                == ["D-2 2", "D-1 1", "D-3 1"])
    }

    @Test(.enabled(if: PostgresTestDatabase.enabled, PostgresTestDatabase.skipReason))
    func postgreSQLLinksBecomeListsOnBothSides() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let connection = try database.connect()
        let migration = try #require(Migration.postgreSQL.firstIndex { $0.name == "device_postings" })
        try PostgreSQLMigrator(migrations: Array(Migration.postgreSQL.prefix(migration))).migrate(connection)
        for (id, uuid) in [(7, "P-1"), (9, "P-2"), (11, "P-3")] {
            try connection.execute("""
                INSERT INTO profiles (id, uuid, name, kind, creation_date, expiration_date, effective_expiration_date,
                                      expiry_cause, sha256, first_seen, last_seen)
                VALUES ($2, $3, 'Profile', 'development', $1, $1, $1, 'profile', 'CD', $1, $1)
                """, [.text(Self.now), .integer(Int64(id)), .text(uuid)])
        }
        for id in 1...3 {
            try connection.execute("INSERT INTO devices (id, udid, first_seen) VALUES ($1, $2, $3)",
                                   [.integer(Int64(id)), .text("D-\(id)"), .text(Self.now)])
        }
        try connection.execute("INSERT INTO profile_devices (profile_id, device_id) VALUES (7, 2), (7, 1), (9, 2), (9, 3)")
        #expect(try PostgreSQLMigrator().migrate(connection).contains(Migration.postgreSQL[migration].id))
        #expect(try connection.query("SELECT profile_id, device_id FROM profile_devices ORDER BY 1, 2").map(\.values)
                == [[.integer(7), .integer(1)], [.integer(7), .integer(2)], [.integer(9), .integer(2)], [.integer(9), .integer(3)]])
        #expect(try connection.query("SELECT id, device_ids FROM profiles ORDER BY id").map(\.values)
                == [[.integer(7), .text("[1, 2]")], [.integer(9), .text("[2, 3]")], [.integer(11), .null]])
        #expect(try connection.query("SELECT * FROM device_profiles ORDER BY device_id").map(\.values) == [
            [.integer(1), .integer(7), .text("[7]")], [.integer(2), .integer(7), .text("[7, 9]")],
            [.integer(3), .integer(9), .text("[9]")],
        ])
        #expect(try CatalogQueries(connection).devices().map { "\($0.udid) \($0.profileCount)" }
                == ["D-2 2", "D-1 1", "D-3 1"])
    }
}
