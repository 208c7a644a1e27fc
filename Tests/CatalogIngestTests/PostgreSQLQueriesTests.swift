import CatalogCore
import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogIngest
@testable import CatalogStore

/// Issue 16, "same answers on both": the fixtures are ingested into SQLite, every row is copied into
/// a fresh PostgreSQL database migrated from Migrations/postgresql, and every query of the read side
/// must return equal typed records from both engines, for every filter the commands use. The
/// catalogue holds two hosts (``TwoHostCatalogue``), so the host columns and `--host` compare too.
@Suite(.timeLimit(.minutes(10)), .enabled(if: PostgresTestServer.testsEnabled, Comment(rawValue: PostgresTestServer.unavailableReason)))
struct PostgreSQLQueriesTests {
    /// The fixtures in a SQLite catalogue (two runs: runs, errors and renewals have history) split
    /// between two hosts, and the same rows in a fresh PostgreSQL database, dropped when `body` returns.
    static func withBothEngines(_ body: (_ sqlitePath: String, _ postgresURL: String) throws -> Void) throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures()
        let db = scratch.file("catalog.sqlite")
        try ingest([tree], db: db)
        try ingest([tree + "/profiles"], db: db)
        try TwoHostCatalogue.split(try Connection.openCatalogue(path: db))
        let server = try #require(PostgresTestServer.url, "PostgreSQL tests are required here: \(PostgresTestServer.unavailableReason)")
        let database = "catalog_q_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        let admin = try PostgreSQLConnection(server)
        try admin.execute("CREATE DATABASE \(database)")
        defer { _ = try? admin.execute("DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
        let url = PostgresTestServer.replacingDatabase(in: server, with: database)
        do {
            let postgres = try PostgreSQLConnection(url)
            _ = try PostgreSQLMigrator().migrate(postgres)
            try Self.copy(from: try Connection.openCatalogue(path: db, readOnly: true), to: postgres)
        }
        try body(db, url)
    }

    @Test func everyQueryGivesTheSameRecordsOnBothEngines() throws {
        try Self.withBothEngines { db, url in try compareQueries(sqlite: try Connection.openCatalogue(path: db, readOnly: true),
                                                                 postgres: try PostgreSQLConnection(url)) }
    }

    /// The commands scripts run print the same bytes from both engines (but `stats`' `database`).
    @Test func everyQueryCommandPrintsTheSameOnBothEngines() throws {
        try Self.withBothEngines { db, url in
            let asOf = ["--as-of", "2026-12-01T00:00:00Z"]
            let sqlite = try Connection.openCatalogue(path: db, readOnly: true)
            let uuid = try #require(try sqlite.query("SELECT uuid FROM profiles ORDER BY uuid LIMIT 1").first?.string("uuid"))
            let udid = try #require(try sqlite.query("SELECT udid FROM devices ORDER BY udid LIMIT 1").first?.string("udid"))
            let commands: [[String]] = [
                ["expiring", "--days", "400", "--include-expired", "--include-superseded", "--all-locations"] + asOf,
                ["expiring", "--builds", "--days", "400", "--include-expired"] + asOf,
                ["profiles", "--include-removed"] + asOf, ["profiles", "--bundle-id", "COM.EXAMPLE.APP"] + asOf,
                ["profiles", "--entitlement", "keychain-access-groups=TEAM123456.*"] + asOf,
                ["profiles", "--certificate", "apple development"] + asOf,
                ["certificates"] + asOf, ["devices"], ["devices", udid] + asOf, ["builds", "--include-removed"] + asOf,
                ["versions", "com.example.app", "--include-removed"], ["runs"], ["errors"], ["show", uuid] + asOf,
                ["prune", "/", "--host", "build-01"] + asOf,
                // The host dimension: one host's rows, the name in any case.
                ["profiles", "--host", "BUILD-02"] + asOf, ["profiles", "--removed", "--host", "build-02"] + asOf,
                ["profiles", "--installed", "--host", "build-01"], ["profiles", "--include-removed", "--host", "build-02"] + asOf,
                ["expiring", "--days", "400", "--include-expired", "--host", "build-02"] + asOf,
                ["expiring", "--builds", "--days", "400", "--include-expired", "--host", "build-02"] + asOf,
                ["builds", "--include-removed", "--host", "build-02"] + asOf,
                ["builds", "--uuid", BuildsByUUIDTests.mainUUID.lowercased().replacingOccurrences(of: "-", with: "")] + asOf,
                ["versions", "com.example.app", "--include-removed", "--host", "Build-02"],
                ["devices", udid, "--host", "build-01"] + asOf, ["runs", "--host", "build-02"],
                ["errors", "--host", "build-02"], ["show", uuid, "--host", "build-02"] + asOf,
            ]
            // A lookup role as the README grants it (SELECT only) runs every one of them too.
            let lookup = "catalog_lookup_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(10).lowercased()
            let owner = try PostgreSQLConnection(url)
            try owner.execute("CREATE ROLE \(lookup) LOGIN")
            defer { _ = try? owner.execute("DROP OWNED BY \(lookup)"); _ = try? PostgreSQLConnection(
                PostgresTestServer.replacingDatabase(in: url, with: "postgres")).execute("DROP ROLE IF EXISTS \(lookup)") }
            try owner.execute("GRANT USAGE ON SCHEMA public TO \(lookup)")
            try owner.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(lookup)")
            let lookupURL = PostgresTestServer.replacingUser(in: url, with: lookup)
            for command in commands {
                for format in ["json", "csv", "table"] {
                    let left = try CatalogProcess.run(command + ["--db", db, "--format", format])
                    let right = try CatalogProcess.run(command + ["--db", url, "--format", format])
                    #expect(left.status == 0 && right.status == 0, "\(command): \(left.stderr) \(right.stderr)")
                    #expect(left.stdout == right.stdout, "\(command) --format \(format): SQLite and PostgreSQL print differently")
                    let asLookup = try CatalogProcess.run(command + ["--db", lookupURL, "--format", format])
                    #expect(asLookup.status == 0 && asLookup.stdout == left.stdout, "\(command) as the lookup role: \(asLookup.stderr)")
                }
            }
            #expect(throws: PostgreSQLError.self) {
                try PostgreSQLConnection(lookupURL).execute("DELETE FROM ingest_errors")
            }
            let report = try CatalogProcess.run(["report", "--db", url] + asOf)
            #expect(report.status == 0 && report.stdout.contains("com.example"), "report: \(report.stderr)")
            let stats = try CatalogProcess.run(["stats", "--db", url, "--json"])
            #expect(stats.status == 0 && stats.stdout.contains("\"schema_version\""), "stats: \(stats.stderr)")
            // The lookup role cannot ingest either: its first write is refused and nothing changes.
            let ingest = try CatalogProcess.run(["ingest", TestPaths.fixtures + "/profiles", "--db", lookupURL,
                                                 "--host", "lookup-laptop"])
            #expect(ingest.status == 1 && ingest.stderr.contains("permission denied"), "ingest: \(ingest.stderr)")
        }
    }

    func compareQueries(sqlite: Connection, postgres: PostgreSQLConnection) throws {

        let a = CatalogQueries(sqlite), b = CatalogQueries(postgres)
        let now = try #require(ISO8601.parse("2026-12-01T00:00:00Z"))
        var compared = 0
        func same<T: Equatable>(_ what: String, _ query: (CatalogQueries) throws -> T) throws {
            let left = try query(a), right = try query(b)
            #expect(left == right, "\(what): SQLite and PostgreSQL differ")
            compared += 1
        }

        let profiles = try a.profiles(CatalogQueries.ProfileFilter())
        #expect(profiles.count > 20)
        var filters: [(String, CatalogQueries.ProfileFilter)] = []
        func filter(_ name: String, _ change: (inout CatalogQueries.ProfileFilter) -> Void) {
            var f = CatalogQueries.ProfileFilter()
            f.now = now
            change(&f)
            filters.append((name, f))
        }
        filter("present") { _ in }
        filter("any") { $0.scope = .any }
        filter("installed") { $0.scope = .installed }
        filter("removed") { $0.scope = .removed }
        filter("team, any case") { $0.teamID = profiles.compactMap(\.teamID).first?.lowercased() }
        for bundle in Set(profiles.compactMap(\.bundleID)).sorted() {
            filter("bundle \(bundle)") { $0.bundleID = bundle.uppercased() }
            filter("exact bundle \(bundle)") { $0.bundleID = bundle; $0.exactBundleID = true }
        }
        for kind in ProfileKind.allCases { filter("kind \(kind)") { $0.kind = kind } }
        for platform in PlatformName.allCases { filter("platform \(platform)") { $0.platform = platform } }
        filter("expired") { $0.expired = true }
        filter("valid") { $0.expired = false }
        filter("expiring") { $0.expiringBy = now.addingTimeInterval(90 * 86_400); $0.expired = false; $0.superseded = false }
        filter("superseded") { $0.superseded = true }
        filter("current") { $0.superseded = false }
        for status in ProfileSignature.Status.allCases { filter("signature \(status)") { $0.signature = status } }
        filter("unchecked") { $0.signatureUnchecked = true }
        filter("name") { $0.nameContains = "EXAMPLE" }
        filter("limit") { $0.limit = 3 }
        filter("entitlement key") { $0.entitlementKey = "get-task-allow" }
        filter("entitlement bool") { $0.entitlementKey = "get-task-allow"; $0.entitlementValue = "true" }
        filter("entitlement member") { $0.entitlementKey = "keychain-access-groups"; $0.entitlementValue = "TEAM123456.*" }
        filter("entitlement string") { $0.entitlementKey = "aps-environment"; $0.entitlementValue = "production" }
        for host in [TwoHostCatalogue.first, TwoHostCatalogue.second.uppercased(), "nowhere"] {
            for scope in [CatalogQueries.LocationScope.anyLive, .installed, .removed, .any] {
                filter("host \(host) \(scope)") { $0.host = host; $0.scope = scope }
            }
            filter("host \(host) expiring") { $0.host = host; $0.expiringBy = now.addingTimeInterval(400 * 86_400) }
        }
        let devices = try a.devices()
        if let udid = devices.first?.udid { filter("device") { $0.udid = udid.lowercased() } }
        let certificates = try a.certificates(CatalogQueries.CertificateFilter())
        filter("certificates") { $0.certificateSHA1s = Array(certificates.prefix(2).map(\.sha1)) }
        for (name, f) in filters { try same("profiles \(name)") { try $0.profiles(f) } }
        #expect(try filters.contains { try !a.profiles($0.1).isEmpty && $0.0.hasPrefix("entitlement member") })

        try same("devices") { try $0.devices() }
        try same("certificates") { try $0.certificates(CatalogQueries.CertificateFilter()) }
        var certificateFilter = CatalogQueries.CertificateFilter()
        certificateFilter.now = now
        certificateFilter.expired = false
        certificateFilter.nameContains = "apple"
        certificateFilter.types = [.appleDevelopment, .appleDistribution]
        try same("certificates filtered") { try $0.certificates(certificateFilter) }
        for scope in [CatalogQueries.LocationScope.installed, .anyLive] {
            for host in [nil, TwoHostCatalogue.second] {
                try same("expiring certificates") {
                    try $0.expiringCertificates(from: now, to: now.addingTimeInterval(3650 * 86_400), includeExpired: true,
                                                scope: scope, teamID: nil, host: host)
                }
            }
        }
        for certificate in certificates {
            try same("certificate lookup") { try $0.certificates(matching: String(certificate.sha1.prefix(10)).lowercased()) }
        }
        try same("certificate by name") { try $0.certificates(matching: "development") }
        try same("runs") { try $0.runs(limit: nil) }
        try same("one run") { try $0.runs(limit: 1) }
        try same("errors now") { try $0.errors(runID: nil) }
        try same("errors of run 1") { try $0.errors(runID: 1) }
        for host in [TwoHostCatalogue.first, "Build-02"] {
            try same("runs of \(host)") { try $0.runs(limit: nil, host: host) }
            try same("errors now of \(host)") { try $0.errors(runID: nil, host: host) }
            try same("errors of run 1 of \(host)") { try $0.errors(runID: 1, host: host) }
        }
        #expect(Set(try a.runs(limit: nil).map(\.host)) == [TwoHostCatalogue.first, TwoHostCatalogue.second])
        try same("stats") { try $0.stats() }
        try same("last ingest") { try $0.lastSuccessfulIngest() }
        for host in [TwoHostCatalogue.first, "Build-02", "no-such-host"] {
            try same("last ingest of \(host)") { try $0.lastSuccessfulIngest(host: host) }
        }
        #expect(try a.lastSuccessfulIngest(host: "no-such-host") == nil)
        #expect(try a.lastSuccessfulIngest(host: "BUILD-02") != nil)
        for host in ["build-01", "build-02", ""] {
            try same("prune candidates of '\(host)'") { try $0.pruneCandidates(now: now, host: host) }
        }
        try same("profiles named") { try $0.profiles(named: "example") }

        var buildFilters: [CatalogQueries.BuildFilter] = [CatalogQueries.BuildFilter()]
        var anyBuild = CatalogQueries.BuildFilter()
        anyBuild.presence = .any
        buildFilters.append(anyBuild)
        let builds = try a.builds(anyBuild)
        #expect(builds.count > 5)
        #expect(builds.contains { $0.signing?.problems.isEmpty == false })
        // Signing problems judged on each side, the dated ones before and after the fixtures' expiries.
        for date in ["2026-05-01T00:00:00Z", "2026-12-20T00:00:00Z"] {
            var f = anyBuild
            f.now = try #require(ISO8601.parse(date))
            buildFilters.append(f)
        }
        for bundle in Set(builds.compactMap(\.bundleID)).sorted() {
            var f = CatalogQueries.BuildFilter()
            f.bundleID = bundle.uppercased()
            buildFilters.append(f)
            try same("versions \(bundle)") { try $0.versions(bundleID: bundle, presence: .any) }
            try same("versions \(bundle) on one host") { try $0.versions(bundleID: bundle, presence: .any, host: "BUILD-02") }
        }
        for host in [TwoHostCatalogue.first, TwoHostCatalogue.second] {
            for presence in [CatalogQueries.Presence.present, .removed, .any] {
                var f = CatalogQueries.BuildFilter()
                f.host = host.uppercased()
                f.presence = presence
                buildFilters.append(f)
            }
        }
        if let udid = devices.first?.udid {
            var f = CatalogQueries.BuildFilter()
            f.installableBy = udid
            f.now = now
            buildFilters.append(f)
        }
        var launching = CatalogQueries.BuildFilter()
        launching.launchesUntilBy = now.addingTimeInterval(365 * 86_400)
        buildFilters.append(launching)
        // A crash report's UUIDs: the app's (its executable and the archive's dSYM) and a framework's.
        for uuid in [BuildsByUUIDTests.mainUUID, BuildsByUUIDTests.frameworkUUID] {
            var f = CatalogQueries.BuildFilter()
            f.binaryUUID = uuid
            f.presence = .any
            #expect(try a.builds(f).count >= 3, "\(uuid)")
            buildFilters.append(f)
        }
        for (index, f) in buildFilters.enumerated() { try same("builds \(index)") { try $0.builds(f) } }

        for profile in try a.profiles(filters[1].1) {
            try same("show \(profile.uuid)") { try $0.profileDetail(uuid: profile.uuid) }
            try same("show \(profile.uuid) on one host") { try $0.profileDetail(uuid: profile.uuid, host: TwoHostCatalogue.second) }
            try same("signature \(profile.uuid)") { try $0.storedSignature(uuid: profile.uuid) }
            if let path = profile.path {
                try same("path \(path)") { try $0.profileUUID(atPath: path) }
                try same("path \(path) on one host") { try $0.profileUUID(atPath: path, host: TwoHostCatalogue.second) }
            }
        }
        #expect(compared > 100)
    }

    /// Every row of every catalogue table, as it is (ids included, hosts named as PostgreSQL requires).
    static func copy(from sqlite: Connection, to postgres: PostgreSQLConnection) throws {
        let tables = try sqlite.query("""
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'
            ORDER BY rowid
            """).compactMap { $0.string("name") }
        try postgres.transaction {
            // Rows arrive table by table; the foreign keys hold once all are in.
            try postgres.execute("SET LOCAL session_replication_role = replica")
            for table in tables {
                for row in try sqlite.query("SELECT * FROM \(table)") {
                    let columns = row.columns.joined(separator: ", ")
                    let placeholders = (1...row.columns.count).map { "$\($0)" }.joined(separator: ", ")
                    try postgres.execute("INSERT INTO \(table) (\(columns)) VALUES (\(placeholders))", row.values)
                }
            }
        }
    }
}
