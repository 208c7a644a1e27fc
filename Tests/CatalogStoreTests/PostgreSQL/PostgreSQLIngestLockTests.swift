import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// The per-host advisory ingest lock: a second holder for the same host waits (and is told), another
/// host does not.
@Suite(.timeLimit(.minutes(10)), .enabled(if: PostgresTestDatabase.enabled, PostgresTestDatabase.skipReason))
struct PostgreSQLIngestLockTests {
    @Test func aSecondIngestForTheSameHostWaitsAndSaysSo() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let host = "build-\(UUID().uuidString.prefix(8))"
        let first = try database.connect()
        let second = try database.connect()
        try first.lockIngest(host: host, waitingUpTo: 1)

        var waited = false
        let started = Date()
        let error = try #require(throws: PostgreSQLError.self) {
            try second.lockIngest(host: host, waitingUpTo: 0.3) { waited = true }
        }
        #expect(waited)
        #expect(error.condition == .lockNotAvailable)
        #expect(error.message.contains("another ingest for host '\(host)'"))
        #expect(Date().timeIntervalSince(started) >= 0.25)
        // The timeout was the lock's only: the session's setting is back.
        #expect(try second.queryFirst("SELECT current_setting('lock_timeout') AS v")?.string("v") == "0")

        // Another host is not held up.
        var otherWaited = false
        try second.lockIngest(host: host + "-other", waitingUpTo: 0.3) { otherWaited = true }
        #expect(!otherWaited)

        // Released by the first, the second gets it while waiting.
        let url = database.url
        let outcome = Outcomes()
        let waiter = Thread {
            do {
                let third = try PostgreSQLConnection(url)
                try third.lockIngest(host: host, waitingUpTo: 30)
                try third.unlockIngest(host: host)
            } catch {
                outcome.append(error)
            }
            outcome.finish()
        }
        waiter.start()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try first.unlockIngest(host: host))
        outcome.waitForFinish()
        #expect(outcome.all.isEmpty, "\(outcome.all)")
        #expect(try !first.unlockIngest(host: host), "not held any more")
    }

    @Test func aClosedSessionReleasesTheLock() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        let host = "build-\(UUID().uuidString.prefix(8))"
        do {
            let killed = try database.connect()
            try killed.lockIngest(host: host, waitingUpTo: 1)
        }
        // The server may take a moment to notice the session ended, hence the wait allowed.
        let next = try database.connect()
        try next.lockIngest(host: host, waitingUpTo: 5)
        #expect(try next.unlockIngest(host: host), "the new session holds the lock")
    }

    @Test func lockKeysAreStableAndDistinct() {
        #expect(PostgreSQLConnection.ingestLockKey(host: "mac-mini-01") == PostgreSQLConnection.ingestLockKey(host: "mac-mini-01"))
        let keys = Set((0..<1000).map { PostgreSQLConnection.ingestLockKey(host: "host-\($0)") })
        #expect(keys.count == 1000)
    }
}
