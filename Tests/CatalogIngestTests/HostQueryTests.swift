import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// Issue 16, "query commands show the host where a path is shown, and filter with --host", on
/// SQLite: a one-host catalogue (host '') prints `host: null` and its tables look as before; a
/// two-host one (``TwoHostCatalogue``) prints each row's host, and `--host` keeps one host's rows.
/// PostgreSQLQueriesTests checks that PostgreSQL gives the same.
@Suite(.timeLimit(.minutes(10))) struct HostQueryTests {
    static let asOf = ["--as-of", "2026-12-01T00:00:00Z"]

    /// The fixtures ingested twice (runs and errors have history), every host '' — what migration
    /// 0008 leaves and a writer that names no host writes — or split between two hosts.
    static func catalogue(_ scratch: Scratch, twoHosts: Bool) throws -> String {
        let tree = try scratch.copyFixtures()
        let db = scratch.file("catalog.sqlite")
        try ingest([tree], db: db)
        try ingest([tree + "/profiles"], db: db)
        let connection = try Connection.openCatalogue(path: db)
        if twoHosts {
            try TwoHostCatalogue.split(connection)
        } else {
            for table in ["profile_locations", "builds", "files", "ingest_runs"] {
                try connection.execute("UPDATE \(table) SET host = ''")
            }
        }
        return db
    }

    static func run(_ arguments: [String], _ db: String) throws -> CatalogProcess.Result {
        let result = try CatalogProcess.run(arguments + ["--db", db])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result
    }

    static func records(_ arguments: [String], _ db: String) throws -> [[String: Any]] {
        try CatalogProcess.json(try run(arguments + ["--json"], db).stdout) as? [[String: Any]] ?? []
    }

    /// Every listing that shows a path: (arguments, the rows' key that holds the path).
    static let listings: [[String]] = [
        ["profiles", "--include-removed"] + asOf, ["builds", "--include-removed"] + asOf,
        ["expiring", "--builds", "--days", "3650", "--include-expired"] + asOf, ["runs"], ["errors"],
    ]

    @Test func aOneHostCatalogueHasNullHostsAndTablesWithoutAHostColumn() throws {
        let scratch = try Scratch()
        let db = try Self.catalogue(scratch, twoHosts: false)
        for arguments in Self.listings {
            let rows = try Self.records(arguments, db)
            #expect(!rows.isEmpty, "\(arguments)")
            for row in rows {
                // The key is there, and null: "this catalogue's own machine, unnamed".
                #expect(row.keys.contains("host") && row["host"] is NSNull, "\(arguments): \(row)")
            }
            let table = try Self.run(arguments + ["--format", "table"], db).stdout
            #expect(!table.contains("HOST"), "\(arguments): a one-host table gained a HOST column")
            let csv = try Self.run(arguments + ["--format", "csv"], db).stdout
            #expect(csv.split(separator: "\r\n").first?.split(separator: ",").contains("host") == true, "\(arguments): \(csv)")
        }
        let uuid = try #require(try Self.records(["profiles"], db).first?["uuid"] as? String)
        let show = try CatalogProcess.json(try Self.run(["show", uuid, "--json"], db).stdout) as? [String: Any] ?? [:]
        for location in show["locations"] as? [[String: Any]] ?? [] { #expect(location["host"] is NSNull) }
        #expect(!(try Self.run(["show", uuid, "--format", "table"], db).stdout.contains("HOST")))
    }

    @Test func hostSelectsOneHostsRowsAndTablesShowTheColumn() throws {
        let scratch = try Scratch()
        let db = try Self.catalogue(scratch, twoHosts: true)
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        func count(_ sql: String) throws -> Int { try connection.queryFirst(sql)?.int("n") ?? -1 }

        // Without --host: both hosts' rows, each saying its host.
        let allBuilds = try Self.records(["builds", "--include-removed"], db)
        #expect(allBuilds.count == (try count("SELECT count(*) AS n FROM builds")))
        #expect(Set(allBuilds.compactMap { $0["host"] as? String }) == [TwoHostCatalogue.first, TwoHostCatalogue.second])
        let table = try Self.run(["builds", "--format", "table"], db).stdout
        #expect(table.hasPrefix("BUNDLE ID") && table.contains("HOST") && table.contains(TwoHostCatalogue.second))

        // --host: that host's rows only, the name in any case.
        let second = try Self.records(["builds", "--include-removed", "--host", "BUILD-02"], db)
        #expect(second.count == (try count("SELECT count(*) AS n FROM builds WHERE host = 'build-02'")))
        #expect(second.allSatisfy { $0["host"] as? String == TwoHostCatalogue.second })
        let present = try Self.records(["builds", "--host", "build-02"], db)
        #expect(present.count == (try count("SELECT count(*) AS n FROM builds WHERE host = 'build-02' AND removed_at IS NULL")))
        #expect(present.count < second.count)

        // Profiles: those present on the host, path and host from a location there.
        let profiles = try Self.records(["profiles", "--host", "build-02"] + Self.asOf, db)
        #expect(profiles.count == (try count("""
            SELECT count(DISTINCT profile_uuid) AS n FROM profile_locations WHERE host = 'build-02' AND removed_at IS NULL
            """)))
        for profile in profiles {
            let path = try #require(profile["path"] as? String)
            #expect(profile["host"] as? String == TwoHostCatalogue.second)
            #expect(try connection.queryFirst("""
                SELECT 1 AS n FROM profile_locations WHERE host = 'build-02' AND path = ? AND removed_at IS NULL
                """, [.text(path)]) != nil, "\(path) is not a present build-02 location")
        }
        // Removed on build-02 but present on build-01: listed by --removed --host build-02 only.
        let removed = Set(try Self.records(["profiles", "--removed", "--host", "build-02"] + Self.asOf, db).compactMap { $0["uuid"] as? String })
        #expect(!removed.isEmpty)
        #expect(removed.isDisjoint(with: Set(profiles.compactMap { $0["uuid"] as? String })))
        #expect(try Self.records(["profiles", "--removed"] + Self.asOf, db).count < removed.count,
                "the fixtures' profiles removed on build-02 are present on build-01")
        #expect(try Self.records(["profiles", "--host", "nowhere"] + Self.asOf, db).isEmpty)

        // Runs and errors: the run's host.
        let runs = try Self.records(["runs", "--host", "build-02"], db)
        #expect(runs.count == 1 && runs.first?["host"] as? String == TwoHostCatalogue.second)
        let errors = try Self.records(["errors", "--host", "build-02"], db)
        #expect(!errors.isEmpty && errors.allSatisfy { $0["host"] as? String == TwoHostCatalogue.second })
        let allErrors = try Self.records(["errors"], db)
        #expect(allErrors.count > errors.count)
        #expect(allErrors.count == Set(allErrors.map { "\($0["host"] ?? "")\u{0}\($0["path"] ?? "")" }).count,
                "each path once per host")

        // show: one host's locations and builds; a path is looked up on the host asked for.
        let shared = try #require(try connection.queryFirst("""
            SELECT a.path, a.profile_uuid FROM profile_locations a JOIN profile_locations b ON b.path = a.path
            WHERE a.host = 'build-01' AND b.host = 'build-02' AND a.removed_at IS NULL AND b.removed_at IS NULL
            ORDER BY a.path LIMIT 1
            """))
        let path = try #require(shared.string("path"))
        let shown = try CatalogProcess.json(try Self.run(["show", path, "--host", "build-02", "--json"], db).stdout) as? [String: Any]
        #expect(shown?["uuid"] as? String == shared.string("profile_uuid"))
        let locations = shown?["locations"] as? [[String: Any]] ?? []
        #expect(!locations.isEmpty && locations.allSatisfy { $0["host"] as? String == TwoHostCatalogue.second })
        let view = try Self.run(["show", path, "--format", "table"], db).stdout
        #expect(view.contains("HOST") && view.contains(TwoHostCatalogue.first) && view.contains(TwoHostCatalogue.second))
    }

    @Test func anEmptyHostIsAUsageError() throws {
        let scratch = try Scratch()
        let db = try Self.catalogue(scratch, twoHosts: false)
        for arguments in [["profiles", "--host", ""], ["builds", "--host="], ["devices", "--host", "build-01"]] {
            let result = try CatalogProcess.run(arguments + ["--db", db])
            #expect(result.status == 64 && result.stderr.contains("--host"), "\(arguments): \(result.stderr)")
        }
    }
}
