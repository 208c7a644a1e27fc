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
@Suite(.timeLimit(.minutes(10))) struct DeviceListsTests {
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

    /// Each device's profiles, from `device_profiles` (through the view of its pairs), as
    /// "UDID: UUID UUID…"; `rows` runs a query on either engine.
    private static func lists(_ rows: (String) throws -> [[SQLValue]]) throws -> [String] {
        var lines: [String] = []
        for row in try rows("""
            SELECT d.udid, p.uuid FROM profile_devices pd JOIN devices d ON d.id = pd.device_id
            JOIN profiles p ON p.id = pd.profile_id ORDER BY d.udid, p.uuid
            """) {
            guard case .text(let udid) = row[0], case .text(let uuid) = row[1] else { continue }
            if lines.last?.hasPrefix(udid + ":") == true { lines[lines.count - 1] += " " + uuid } else { lines.append("\(udid): \(uuid)") }
        }
        return lines
    }

    /// New profiles, an update that changes the devices, a rewrite that does not, a profile updated
    /// before its links were written, through `writer`; `rows` reads the same catalogue.
    private static func bothSidesFollow(_ writer: CatalogWriter, _ queries: CatalogQueries,
                                        rows: (String) throws -> [[SQLValue]]) throws {
        #expect(try writer.upsertProfile(profile("A", devices: ["D1", "D2"], sha256: "A1"), at: date) == .new)
        // D3 twice: linked once.
        #expect(try writer.upsertProfile(profile("B", devices: ["D3", "D2", "D3"], sha256: "B1"), at: date) == .new)
        try writer.flushDeviceLinks()
        #expect(try lists(rows) == ["D1: A", "D2: A B", "D3: B"])
        #expect(try queries.devices().map { "\($0.udid) \($0.profileCount)" } == ["D2 2", "D1 1", "D3 1"])
        #expect(try queries.profileDetail(uuid: "A")?.devices == ["D1", "D2"])
        var filter = CatalogQueries.ProfileFilter()
        filter.udid = "d2"
        filter.scope = .any
        #expect(try queries.profiles(filter).map(\.uuid).sorted() == ["A", "B"])

        // An update that drops D1 and adds D4: D1 is listed by no profile, its row goes.
        #expect(try writer.upsertProfile(profile("A", devices: ["D4", "D2"], sha256: "A2"), at: date) == .updated)
        try writer.flushDeviceLinks()
        #expect(try lists(rows) == ["D2: A B", "D3: B", "D4: A"])
        #expect(try queries.profileDetail(uuid: "A")?.devices == ["D2", "D4"])
        #expect(try rows("SELECT count(*) FROM device_profiles WHERE profile_ids = '[]'") == [[.integer(0)]])

        // A rewrite with the same devices (`ingest --full`) changes no list.
        let postings = "SELECT device_id, first_profile_id, profile_ids FROM device_profiles ORDER BY 1, 2"
        let before = try rows(postings)
        #expect(try writer.upsertProfile(profile("A", devices: ["D4", "D2"], sha256: "A2"), at: date, rewrite: true) == .updated)
        try writer.flushDeviceLinks()
        #expect(try rows(postings) == before)

        // A profile linked and updated before its links are written: the lists are right.
        #expect(try writer.upsertProfile(profile("C", devices: ["D1"], sha256: "C1"), at: date) == .new)
        #expect(try writer.upsertProfile(profile("C", devices: ["D2"], sha256: "C2"), at: date) == .updated)
        try writer.flushDeviceLinks()
        #expect(try lists(rows) == ["D2: A B C", "D3: B", "D4: A"])
        #expect(try queries.devices().map { "\($0.udid) \($0.profileCount)" } == ["D2 3", "D3 1", "D4 1", "D1 0"])

        // A leaves D2's list and comes back. On SQLite the row keeps A's id as its key (B is in it
        // too), and takes A in again; on PostgreSQL it went with A and comes back.
        #expect(try writer.upsertProfile(profile("A", devices: ["D4"], sha256: "A3"), at: date) == .updated)
        try writer.flushDeviceLinks()
        #expect(try lists(rows) == ["D2: B C", "D3: B", "D4: A"])
        #expect(try writer.upsertProfile(profile("A", devices: ["D4", "D2"], sha256: "A4"), at: date) == .updated)
        try writer.flushDeviceLinks()
        #expect(try lists(rows) == ["D2: A B C", "D3: B", "D4: A"])
        // Each pair once.
        #expect(try rows("SELECT count(*) FROM profile_devices WHERE device_id = (SELECT id FROM devices WHERE udid = 'D2')")
                == [[.integer(3)]])
    }

    @Test func sqliteBothSidesFollowNewUpdatedAndRewrittenProfiles() throws {
        let folder = try Scratch()
        let db = try Connection.openCatalogue(path: folder.file("catalog.sqlite"))
        try Self.bothSidesFollow(CatalogWriter(db), CatalogQueries(db)) { try db.query($0).map(\.values) }
        // The profile's own list keeps its order (and a device it lists twice).
        #expect(try db.query("""
            SELECT d.udid FROM profiles p, json_each(p.device_ids) listed, devices d
            WHERE p.uuid = 'B' AND d.id = listed.value ORDER BY listed.key
            """).compactMap { $0.string("udid") } == ["D3", "D2", "D3"])
    }

    @Test(.enabled(if: PostgresTestDatabase.enabled, PostgresTestDatabase.skipReason))
    func postgreSQLBothSidesFollowNewUpdatedAndRewrittenProfiles() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let catalogue = try Catalogue.openForWriting(path: database.url, host: "build-01", busyTimeout: 10)
        let reader = try PostgreSQLConnection(database.url)
        try Self.bothSidesFollow(catalogue.writer, CatalogQueries(reader)) { try reader.query($0).map(\.values) }
    }

    @Test func sqliteLinksBecomeListsOnBothSides() throws {
        let directory = try Scratch()
        let path = directory.file("catalogue.sqlite")
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
