import CatalogCore
import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogIngest
@testable import CatalogStore

/// Issue 16, "many hosts at once", through the real ingester and writer: hosts ingesting overlapping
/// trees into one PostgreSQL catalogue at the same time get what they get one after another; a run
/// marks removed only its own host's paths; a second ingest of the same host waits and says so.
@Suite(.timeLimit(.minutes(10)), .enabled(if: PostgresTestServer.testsEnabled, Comment(rawValue: PostgresTestServer.unavailableReason)))
struct PostgreSQLIngestTests {
    /// A fresh database on the test server, dropped by `drop()`.
    final class Database {
        let url: String
        private let name: String
        private let server: String

        init() throws {
            server = try #require(PostgresTestServer.url, "PostgreSQL tests are required here: \(PostgresTestServer.unavailableReason)")
            name = "catalog_i_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(14).lowercased()
            try PostgreSQLConnection(server).execute("CREATE DATABASE \(name)")
            url = PostgresTestServer.replacingDatabase(in: server, with: name)
        }

        func drop() {
            _ = try? PostgreSQLConnection(server).execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        }
    }

    /// One host's ingest of `roots` through the store's own opener, as `catalog ingest` runs it.
    @discardableResult
    static func ingest(_ roots: [String], url: String, host: String, full: Bool = false) throws -> IngestReport {
        let catalogue = try Catalogue.openForWriting(path: url, host: host, busyTimeout: 60)
        return try Ingester(catalogue: catalogue, options: IngestOptions(roots: roots, full: full)).run()
    }

    /// Everything the runs wrote that does not depend on when or in which order they ran (ids and
    /// times aside; run counts of new and renewed profiles depend on who came first). Raw plists are
    /// compared as rebuilt.
    static func contents(_ url: String) throws -> [[SQLValue]] {
        let connection = try PostgreSQLConnection(url)
        let plists = try connection.query("""
            SELECT p.uuid FROM profiles p JOIN profile_plists pl ON pl.profile_id = p.id ORDER BY p.uuid
            """).map { row -> [SQLValue] in
            let plist = try connection.storedRawPlist(uuid: row.string("uuid") ?? "", catalogue: url) ?? []
            return [row["uuid"], .text(Digest.sha256Hex(plist))]
        }
        let queries = [
            """
            SELECT uuid, name, team_id, kind, sha256, effective_expiration_date, device_count, certificate_count,
                   signature FROM profiles ORDER BY uuid
            """,
            "SELECT sha1, sha256, common_name, type FROM certificates ORDER BY sha1",
            "SELECT sha1, md5(der) FROM certificate_der ORDER BY sha1",
            "SELECT udid FROM devices ORDER BY udid",
            """
            SELECT p.uuid, d.udid FROM device_profiles dp, json_array_elements_text(CAST(dp.profile_ids AS json)) listed,
                profiles p, devices d WHERE p.id = CAST(listed.value AS bigint) AND d.id = dp.device_id ORDER BY 1, 2
            """,
            """
            SELECT p.uuid, d.udid FROM profiles p, json_array_elements_text(CAST(p.device_ids AS json)) listed, devices d
            WHERE d.id = CAST(listed.value AS bigint) ORDER BY 1, 2
            """,
            "SELECT p.uuid, certificate_sha1 FROM profile_certificates JOIN profiles p ON p.id = profile_id ORDER BY 1, 2",
            "SELECT p.uuid, key, value_json FROM entitlements JOIN profiles p ON p.id = profile_id ORDER BY 1, 2",
            "SELECT profile_uuid, position, reason FROM profile_undecodable_certificates ORDER BY 1, 2",
            """
            SELECT host, path, profile_uuid, container_kind, container_path, removed_at IS NULL AS present, error
            FROM profile_locations ORDER BY host, path
            """,
            """
            SELECT b.host, b.path, b.app_path, b.bundle_id, b.build, b.profile_uuid, b.team_id, p.path AS parent
            FROM builds b LEFT JOIN builds p ON p.id = b.parent_build_id ORDER BY 1, 2, 3
            """,
            "SELECT f.host, f.path, f.status, r.host AS run_host FROM files f JOIN ingest_runs r ON r.id = f.last_run_id ORDER BY 1, 2",
            "SELECT host, status, files_scanned, files_decoded, errors FROM ingest_runs ORDER BY host, id",
            "SELECT r.host, e.path, e.message FROM ingest_errors e JOIN ingest_runs r ON r.id = e.run_id ORDER BY 1, 2, 3",
        ]
        return try plists + queries.flatMap { try connection.query($0).map(\.values) + [[.text("--")]] }
    }

    /// Each host's tree: the fixtures and a run of bare-plist variants, overlapping the others' —
    /// every host shares the fixtures' profiles, certificates and devices, and some variants.
    static func trees(_ scratch: Scratch, hosts: Int) throws -> [String] {
        try (0..<hosts).map { index in
            try scratch.makeFixtureTree("host-\(index)", copies: 1, profileVariants: 6 + 3 * index)
        }
    }

    @Test func eightConcurrentHostIngestsEqualEightSequentialOnes() throws {
        let scratch = try Scratch()
        let trees = try Self.trees(scratch, hosts: 8)
        let sequential = try Database()
        defer { sequential.drop() }
        for (index, tree) in trees.enumerated() { try Self.ingest([tree], url: sequential.url, host: "mac-\(index)") }

        let concurrent = try Database()
        defer { concurrent.drop() }
        let failures = Failures()
        let group = DispatchGroup()
        let url = concurrent.url
        for (index, tree) in trees.enumerated() {
            group.enter()
            Thread {
                defer { group.leave() }
                do { try Self.ingest([tree], url: url, host: "mac-\(index)") } catch { failures.add(error) }
            }.start()
        }
        group.wait()
        #expect(failures.all.isEmpty, "\(failures.all)")
        let expected = try Self.contents(sequential.url)
        let found = try Self.contents(concurrent.url)
        #expect(found.count == expected.count)
        for (left, right) in zip(found, expected) where left != right {
            Issue.record("concurrent \(left) ≠ sequential \(right)")
            break
        }
        // first_seen and last_seen of a shared row are the earliest and latest over the hosts,
        // whichever committed first: a profile's are those of its locations.
        let connection = try PostgreSQLConnection(concurrent.url)
        let disagreeing = try connection.query("""
            SELECT p.uuid FROM profiles p JOIN profile_locations l ON l.profile_uuid = p.uuid
            GROUP BY p.uuid, p.first_seen, p.last_seen
            HAVING p.first_seen <> min(l.first_seen) OR p.last_seen <> max(l.last_seen)
            """)
        #expect(disagreeing.isEmpty, "\(disagreeing)")
        #expect(try connection.queryFirst("SELECT count(DISTINCT host) AS n FROM profile_locations")?.int("n") == 8)
    }

    @Test func aRunMarksRemovedOnlyItsOwnHostsPaths() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("profiles", to: "shared/profiles")
        let database = try Database()
        defer { database.drop() }
        // Two machines with the same folder: the same paths, each host's own rows.
        try Self.ingest([tree], url: database.url, host: "mac-a")
        try Self.ingest([tree], url: database.url, host: "mac-b")
        let gone = tree + "/bare-plist.mobileprovision"
        try FileManager.default.removeItem(atPath: gone)
        let report = try Self.ingest([tree], url: database.url, host: "mac-a")
        #expect(report.profilesRemoved == 1)
        let connection = try PostgreSQLConnection(database.url)
        let rows = try connection.query("SELECT host, removed_at IS NULL AS present FROM profile_locations WHERE path = $1 ORDER BY host",
                                        [.text(gone)])
        #expect(rows.map(\.values) == [[.text("mac-a"), .integer(0)], [.text("mac-b"), .integer(1)]])
        // mac-b's next run finds it gone too; mac-a's file index no longer holds it, mac-b's still did.
        try Self.ingest([tree], url: database.url, host: "mac-b")
        #expect(try connection.queryFirst("SELECT count(*) AS n FROM profile_locations WHERE path = $1 AND removed_at IS NULL",
                                          [.text(gone)])?.int("n") == 0)
        #expect(try connection.queryFirst("SELECT count(*) AS n FROM files WHERE path = $1", [.text(gone)])?.int("n") == 0)
    }

    @Test func aSecondIngestOfTheSameHostWaitsAndSaysSoWhileOtherHostsWrite() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("profiles")
        let database = try Database()
        defer { database.drop() }
        do {
            let first = try Catalogue.openForWriting(path: database.url, host: "mac-a")
            var waited = false
            let display = try PostgreSQLConnection(database.url).displayName
            #expect(throws: StoreError.hostBusy(catalogue: display, host: "mac-a")) {
                _ = try Catalogue.openForWriting(path: database.url, host: "mac-a", busyTimeout: 0.3, onWait: { waited = true })
            }
            #expect(waited)
            // Another host is not held up.
            try Self.ingest([tree], url: database.url, host: "mac-b")
            #expect(first.host == "mac-a")
        }
        // Nor is the same host once the first has gone.
        try Self.ingest([tree], url: database.url, host: "mac-a")
        // prune into a database that holds no catalogue says so, and creates none.
        let empty = try Database()
        defer { empty.drop() }
        let prune = try CatalogProcess.run(["prune", tree, "--db", empty.url, "--host", "mac-a", "--apply"])
        #expect(prune.status == 1 && prune.stderr.contains("no catalogue"), "\(prune.stderr)")
        #expect(try PostgreSQLConnection(empty.url).queryFirst("SELECT count(*) AS n FROM pg_tables WHERE schemaname = 'public'")?.int("n") == 0)
        // A PostgreSQL catalogue needs a host name to be written.
        #expect(throws: StoreError.self) { _ = try Catalogue.openForWriting(path: database.url, host: "") }
    }

    /// A host's ingest killed at any moment leaves none of its rows (the server rolls its
    /// transaction back, and drops its lock with the session); the next run gives what a clean run
    /// gives, whatever shared rows the killed one had committed.
    @Test(.enabled(if: CatalogBinary.isAvailable, "the catalog binary was not found (run `swift build`)"))
    func aKilledHostIngestThenRerunEqualsACleanRun() throws {
        let scratch = try Scratch()
        let tree = try scratch.makeFixtureTree(copies: 2, profileVariants: 12)
        let clean = try Database()
        defer { clean.drop() }
        #expect(try CatalogBinary.run(["ingest", tree, "--db", clean.url, "--host", "mac-a", "--quiet"]).status == 0)
        let expected = try Self.contents(clean.url)
        let total = try #require(try PostgreSQLConnection(clean.url).queryFirst("SELECT count(*) AS n FROM files")?.int("n"))
        var random = SeededRandom(seed: 0xF1EE7)
        for round in 0..<5 {
            let writes = Int.random(in: 1...total, using: &random)
            let label = "round \(round), kill after \(writes) of \(total) writes"
            let database = try Database()
            defer { database.drop() }
            let killed = try CatalogBinary.run(["ingest", tree, "--db", database.url, "--host", "mac-a", "--quiet"],
                                               environment: ["CATALOG_TEST_KILL_AFTER_WRITES": String(writes)])
            #expect(killed.signalled && killed.status == SIGKILL, "\(label): not killed (status \(killed.status))")
            let connection = try PostgreSQLConnection(database.url)
            #expect(try connection.queryFirst("SELECT count(*) AS n FROM ingest_runs")?.int("n") == 0, "\(label)")
            #expect(try connection.queryFirst("SELECT count(*) AS n FROM profile_locations")?.int("n") == 0, "\(label)")
            let rerun = try CatalogBinary.run(["ingest", tree, "--db", database.url, "--host", "mac-a", "--quiet"])
            #expect(rerun.status == 0, "\(label): \(rerun.stderr)")
            #expect(try Self.contents(database.url) == expected, "\(label): differs from a clean run")
        }
    }

    /// `prune` removes files from the machine it runs on: on a fleet catalogue, only its own host's
    /// files are candidates and only its host's locations are marked removed.
    @Test func pruneTouchesOnlyItsOwnHostsFiles() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("renewals", to: "ci/renewals")
        let database = try Database()
        defer { database.drop() }
        for host in ["mac-a", "mac-b"] {
            let run = try CatalogProcess.run(["ingest", tree, "--db", database.url, "--host", host, "--quiet"])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let asOf = ["--as-of", "2026-11-20T00:00:00Z"]
        let dryRun = try CatalogProcess.run(["prune", tree, "--db", database.url, "--host", "MAC-A", "--json"] + asOf)
        let listed = try #require(try CatalogProcess.json(dryRun.stdout) as? [[String: Any]], "\(dryRun.stderr)")
        let doomed = listed.filter { $0["action"] as? String == "would-trash" }.compactMap { $0["path"] as? String }
        #expect(!doomed.isEmpty && Set(doomed).count == doomed.count, "each file once, not once per host: \(listed)")
        let deleted = try CatalogProcess.run(["prune", tree, "--db", database.url, "--host", "mac-a", "--delete", "--json"] + asOf)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        for path in doomed { #expect(!FileManager.default.fileExists(atPath: path)) }
        let connection = try PostgreSQLConnection(database.url)
        let present = try connection.query("""
            SELECT host, count(*) AS n FROM profile_locations WHERE removed_at IS NULL GROUP BY host ORDER BY host
            """).map { [$0.string("host") ?? "", String($0.int("n") ?? 0)] }
        let total = try #require(try connection.queryFirst("SELECT count(*) AS n FROM profile_locations WHERE host = 'mac-b'")?.int("n"))
        #expect(present == [["mac-a", String(total - doomed.count)], ["mac-b", String(total)]])
    }

    /// `catalog ingest` into PostgreSQL and into SQLite: every query command prints the same (the
    /// times of this run aside, which differ by the seconds between the two ingests).
    /// A build is checked against its embedded profile however the run shared the decoding: one
    /// build per batch, so most builds find their profile decoded by an earlier batch.
    @Test func buildSigningIsJudgedAsOnSQLite() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("codesign", to: "codesign")
        let database = try Database()
        defer { database.drop() }
        var options = IngestOptions(roots: [tree])
        options.batchSize = 1
        _ = try Ingester(catalogue: try Catalogue.openForWriting(path: database.url, host: "ci", busyTimeout: 60), options: options).run()
        let sqlite = scratch.file("catalog.sqlite")
        try CatalogIngestTests.ingest([tree], db: sqlite, batchSize: 1)
        var filter = CatalogQueries.BuildFilter()
        filter.now = try #require(ISO8601.parse("2026-12-20T00:00:00Z"))
        let left = try CatalogQueries(try Connection.openCatalogue(path: sqlite, readOnly: true)).builds(filter)
        let right = try CatalogQueries(try PostgreSQLConnection(database.url)).builds(filter)
        #expect(left.count >= 14 && left.map(\.path) == right.map(\.path))
        #expect(left.map(\.signing) == right.map(\.signing))
        #expect(right.contains { $0.signing?.problems.contains { $0.code == .getTaskAllowMismatch } == true })
        #expect(right.contains { $0.signing?.problems.contains { $0.code == .profileExpired } == true })
    }

    @Test func theCLIsIngestIntoPostgreSQLPrintsWhatSQLitePrints() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures()
        let database = try Database()
        defer { database.drop() }
        let sqlite = scratch.file("catalog.sqlite")
        for db in [sqlite, database.url] {
            let run = try CatalogProcess.run(["ingest", tree, "--db", db, "--quiet"], environment: ["CATALOG_HOST": "mac-ci"])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let asOf = ["--as-of", "2026-12-01T00:00:00Z"]
        let today = try NSRegularExpression(pattern: #"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z"#)
        let now = Date()
        func masked(_ text: String) -> String {
            // Only the times of these ingests (within a day of now) are masked, not the fixtures' dates.
            var out = text
            for match in today.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
                guard let range = Range(match.range, in: text), let date = ISO8601.parse(String(text[range])),
                      abs(date.timeIntervalSince(now)) < 86_400 else { continue }
                if let target = Range(match.range, in: out) { out.replaceSubrange(target, with: "NOW") }
            }
            return out
        }
        let commands: [[String]] = [
            ["expiring", "--days", "400", "--include-expired", "--include-superseded", "--all-locations"] + asOf,
            ["expiring", "--builds", "--days", "400", "--include-expired"] + asOf,
            ["profiles", "--include-removed"] + asOf, ["certificates"] + asOf, ["devices"],
            ["builds", "--include-removed"] + asOf, ["runs"], ["errors"],
            // The builds' signing problems, the dated ones once their date has passed.
            ["builds", "--as-of", "2026-12-20"], ["show", "080B4AFF-C595-4955-AEED-8B8810E698FC", "--as-of", "2026-12-20"],
        ]
        let later = try CatalogProcess.run(["builds", "--db", database.url, "--json", "--as-of", "2026-12-20"]).stdout
        // The fixtures' CA is not Apple's: that comes first; the dated problems follow.
        #expect(later.contains("\"signing_status\": \"certificate-not-apple\"") && later.contains("\"code\": \"profile-expired\"")
                && later.contains("\"code\": \"unsigned\""))
        for command in commands {
            let left = try CatalogProcess.run(command + ["--db", sqlite, "--format", "json"])
            let right = try CatalogProcess.run(command + ["--db", database.url, "--format", "json"])
            #expect(left.status == 0 && right.status == 0, "\(command): \(left.stderr) \(right.stderr)")
            #expect(masked(left.stdout) == masked(right.stdout), "\(command): SQLite and PostgreSQL print differently")
        }
    }
}

/// Errors collected from several threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [String] = []
    func add(_ error: any Error) { lock.withLock { errors.append("\(error)") } }
    var all: [String] { lock.withLock { errors } }
}
