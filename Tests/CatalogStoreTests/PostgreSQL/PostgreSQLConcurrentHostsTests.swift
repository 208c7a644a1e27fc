import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// The PostgreSQL schema under N hosts writing at once, with the upsert pattern the writer is to use
/// (a sketch of it, not the writer): each host's run is one transaction; shared rows are upserted on
/// their natural keys, table by table in a fixed order and each table's keys sorted (so two runs
/// never wait on each other in a cycle), with first_seen = LEAST and last_seen = GREATEST (so the
/// commit order does not matter); host rows are keyed by (host, path). The result of 8 concurrent
/// runs over overlapping trees must equal that of the same 8 runs one after another.
@Suite(.enabled(if: PostgresTestDatabase.enabled, PostgresTestDatabase.skipReason))
struct PostgreSQLConcurrentHostsTests {
    struct Profile {
        var uuid: String
        var devices: [String]
    }

    struct HostRun {
        var host: String
        var now: String
        var profiles: [Profile]
    }

    /// 8 hosts, each with 60 of 100 profiles (so most are on several hosts), 4 of 40 devices each.
    static func runs() -> [HostRun] {
        var random = SeededRandom(seed: 16)
        let pool = (0..<100).map { String(format: "%08X-0000-4000-8000-%012X", $0, $0) }
        let udids = (0..<40).map { String(format: "00008030-%016X", $0) }
        var devicesOf: [String: [String]] = [:]
        for uuid in pool { devicesOf[uuid] = Array(udids.shuffled(using: &random).prefix(4)) }
        return (0..<8).map { index in
            let chosen = pool.shuffled(using: &random).prefix(60)
            // Hosts' clocks differ and are not in host order: LEAST/GREATEST must pick the extremes.
            let minute = (index * 37) % 60
            return HostRun(host: "mac-\(index)", now: String(format: "2026-11-30T10:%02d:00Z", minute),
                           profiles: chosen.map { Profile(uuid: $0, devices: devicesOf[$0]!) })
        }
    }

    /// One host's run, in one (retried) transaction.
    static func ingest(_ run: HostRun, into connection: PostgreSQLConnection) throws {
        try connection.retryingTransaction(attempts: 10) {
            let runID = try connection.queryFirst(
                "INSERT INTO ingest_runs (started_at, host) VALUES ($1, $2) RETURNING id",
                [.text(run.now), .text(run.host)])?.int64("id")
            // Shared rows first, devices then profiles, each in key order.
            for udid in Set(run.profiles.flatMap(\.devices)).sorted() {
                try connection.execute("""
                    INSERT INTO devices (udid, first_seen) VALUES ($1, $2)
                    ON CONFLICT (udid) DO UPDATE SET first_seen = LEAST(devices.first_seen, excluded.first_seen)
                    WHERE excluded.first_seen < devices.first_seen
                    """, [.text(udid), .text(run.now)])
            }
            for profile in run.profiles.sorted(by: { $0.uuid < $1.uuid }) {
                let id = try connection.queryFirst("""
                    INSERT INTO profiles (uuid, name, kind, creation_date, expiration_date, effective_expiration_date,
                                          expiry_cause, sha256, raw_plist, first_seen, last_seen)
                    VALUES ($1, $1, 'development', $2, $2, $2, 'profile', 'AB', '\\x00', $2, $2)
                    ON CONFLICT (uuid) DO UPDATE SET first_seen = LEAST(profiles.first_seen, excluded.first_seen),
                                                     last_seen = GREATEST(profiles.last_seen, excluded.last_seen)
                    RETURNING id
                    """, [.text(profile.uuid), .text(run.now)])?.int64("id")
                try connection.execute("""
                    INSERT INTO profile_devices (profile_id, device_id)
                    SELECT $1, id FROM devices WHERE udid = ANY($2::text[]) ORDER BY id
                    ON CONFLICT DO NOTHING
                    """, [SQLValue(id), .text("{" + profile.devices.joined(separator: ",") + "}")])
                try connection.execute("""
                    INSERT INTO profile_locations (host, path, profile_uuid, container_kind, first_seen, last_seen)
                    VALUES ($1, $2, $3, 'standalone', $4, $4)
                    ON CONFLICT (host, path) DO UPDATE SET last_seen = excluded.last_seen
                    """, [.text(run.host), .text("/Users/ci/Profiles/\(profile.uuid).mobileprovision"),
                          .text(profile.uuid), .text(run.now)])
                try connection.execute("""
                    INSERT INTO files (host, path, size, mtime, kind, status, last_run_id)
                    VALUES ($1, $2, 1, $3, 'profile', 'ok', $4)
                    ON CONFLICT (host, path) DO UPDATE SET last_run_id = excluded.last_run_id
                    """, [.text(run.host), .text("/Users/ci/Profiles/\(profile.uuid).mobileprovision"),
                          .text(run.now), SQLValue(runID)])
            }
            try connection.execute("UPDATE ingest_runs SET status = 'ok', finished_at = started_at WHERE id = $1",
                                   [SQLValue(runID)])
        }
    }

    /// Everything the runs wrote, without the generated ids (which depend on the interleaving).
    static func contents(_ connection: PostgreSQLConnection) throws -> [[SQLValue]] {
        let queries = [
            "SELECT uuid, first_seen, last_seen FROM profiles ORDER BY uuid",
            "SELECT udid, first_seen FROM devices ORDER BY udid",
            """
            SELECT p.uuid, d.udid FROM profile_devices pd JOIN profiles p ON p.id = pd.profile_id
            JOIN devices d ON d.id = pd.device_id ORDER BY 1, 2
            """,
            "SELECT host, path, profile_uuid, first_seen, last_seen FROM profile_locations ORDER BY host, path",
            "SELECT f.host, f.path, r.host AS run_host FROM files f JOIN ingest_runs r ON r.id = f.last_run_id ORDER BY 1, 2",
            "SELECT host, status FROM ingest_runs ORDER BY host",
        ]
        return try queries.flatMap { try connection.query($0).map(\.values) + [[.text("--")]] }
    }

    @Test func eightConcurrentHostsEqualEightSequentialOnes() throws {
        let runs = Self.runs()

        let sequential = try PostgresTestDatabase()
        defer { sequential.drop() }
        let one = try sequential.connect()
        try PostgreSQLMigrator().migrate(one)
        for run in runs { try Self.ingest(run, into: one) }

        let concurrent = try PostgresTestDatabase()
        defer { concurrent.drop() }
        try PostgreSQLMigrator().migrate(concurrent.connect())
        let url = concurrent.url
        let failures = Outcomes()
        let group = DispatchGroup()
        for run in runs {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    let connection = try PostgreSQLConnection(url)
                    try connection.lockIngest(host: run.host, waitingUpTo: 60)
                    try Self.ingest(run, into: connection)
                } catch {
                    failures.append(error)
                }
            }.start()
        }
        group.wait()
        #expect(failures.all.isEmpty, "\(failures.all)")

        let expected = try Self.contents(one)
        let found = try Self.contents(concurrent.connect())
        #expect(found == expected)
        #expect(try one.queryFirst("SELECT count(*) AS n FROM profiles")?.int("n") == Set(runs.flatMap { $0.profiles.map(\.uuid) }).count)
        #expect(try one.queryFirst("SELECT count(*) AS n FROM profile_locations")?.int("n") == 8 * 60)
    }
}
