import CatalogStore
import CatalogTestSupport
import Foundation
import Testing

/// A dead nightly job is noticed: `--max-age` turns an old catalogue into a failure, `stats` says
/// how old it is, and a table on a terminal carries a notice once it is a week old.
@Suite(.timeLimit(.minutes(10))) struct StalenessTests {
    typealias Catalogue = QueryCommandTests.Catalogue

    /// Moves every run of the catalogue `days` into the past (a real write to the SQLite file).
    static func age(_ catalogue: Catalogue, days: Int) throws {
        let connection = try Connection(path: catalogue.db)
        let then = SQLDate.string(from: Date().addingTimeInterval(-Double(days) * 86_400))
        _ = try connection.execute("UPDATE ingest_runs SET started_at = ?, finished_at = ?", [.text(then), .text(then)])
    }

    @Test func maxAgeFailsOnAnOldCatalogueAndPassesOnAFreshOne() throws {
        let catalogue = try Catalogue()
        let fresh = try catalogue.run(["expiring", "--max-age", "36h", "--json"])
        #expect(fresh.status == 0, "\(fresh.stderr)")
        try Self.age(catalogue, days: 3)
        for command in [["expiring"], ["profiles"], ["builds"], ["stats"], ["devices"]] {
            let stale = try catalogue.run(command + ["--max-age", "36h", "--json"])
            #expect(stale.status == 1, "\(command)")
            #expect(stale.stdout.isEmpty)
            #expect(stale.stderr.contains("is stale: last ingested successfully at") && stale.stderr.contains("3 days ago"),
                    "\(command): \(stale.stderr)")
        }
        #expect(try catalogue.run(["expiring", "--max-age", "4d", "--json"]).status == 0)
        let fromEnvironment = try catalogue.run(["profiles", "--json"], environment: ["CATALOG_MAX_AGE": "2d"])
        #expect(fromEnvironment.status == 1 && fromEnvironment.stderr.contains("more than --max-age 2d"))
        #expect(try catalogue.run(["profiles", "--max-age", "soon"]).status == 64)
        // --exit-code cannot mistake a stale catalogue for "something expires".
        #expect(try catalogue.run(["expiring", "--exit-code", "--max-age", "1d", "--json"]).status == 1)
    }

    /// In a fleet catalogue, `--host H --max-age` asks how old host H's answers are: one host whose
    /// nightly job died is stale even while another keeps the catalogue as a whole fresh.
    @Test func withHostMaxAgeChecksThatHostsLastIngest() throws {
        let catalogue = try Catalogue()
        let second = try CatalogProcess.run(["ingest", CatalogProcess.fixtures, "--db", catalogue.db,
                                             "--exclude", "signatures", "--host", "Build-B"])
        #expect(second.status == 0, "\(second.stderr)")
        let connection = try Connection(path: catalogue.db)
        let then = SQLDate.string(from: Date().addingTimeInterval(-3 * 86_400))
        _ = try connection.execute("UPDATE ingest_runs SET started_at = ?, finished_at = ? WHERE host = 'build-b'",
                                   [.text(then), .text(then)])

        // The catalogue as a whole is fresh: the unnamed host ingested just now.
        #expect(try catalogue.run(["expiring", "--max-age", "36h", "--json"]).status == 0)
        for command in [["expiring"], ["profiles"], ["builds"], ["runs"]] {
            let stale = try catalogue.run(command + ["--host", "build-b", "--max-age", "36h", "--json"])
            #expect(stale.status == 1, "\(command): \(stale.stderr)")
            #expect(stale.stdout.isEmpty)
            #expect(stale.stderr.contains("host 'build-b' of the catalogue") && stale.stderr.contains("3 days ago"),
                    "\(command): \(stale.stderr)")
        }
        #expect(try catalogue.run(["profiles", "--host", "BUILD-B", "--max-age", "4d", "--json"]).status == 0)
        let never = try catalogue.run(["profiles", "--host", "build-c", "--max-age", "4d", "--json"])
        #expect(never.status == 1 && never.stderr.contains("host 'build-c' of the catalogue")
                && never.stderr.contains("never ingested successfully"), "\(never.stderr)")
    }

    @Test func statsShowsTheAge() throws {
        let catalogue = try Catalogue()
        try Self.age(catalogue, days: 10)
        let stats = try CatalogProcess.json(try catalogue.run(["stats", "--json"]).stdout) as? [String: Any] ?? [:]
        let age = try #require(stats["age_seconds"] as? Int)
        #expect(abs(age - 10 * 86_400) < 600)
        #expect(stats["last_successful_ingest"] is String)
    }

    /// util-linux `script -qec CMD FILE` gives the command a pseudo-terminal; BSD's (macOS) takes
    /// other flags, so this runs on Linux only.
    static let hasLinuxScript = CatalogProcess.hasLinuxScript

    @Test(.enabled(if: hasLinuxScript, "needs util-linux script(1) for a pseudo-terminal"))
    func aTableOnATerminalCarriesANoticeAfterAWeek() throws {
        let catalogue = try Catalogue()
        func onTerminal() throws -> String {
            try CatalogProcess.onTerminal(["profiles", "--team", "ENTRP12345", "--db", catalogue.db], columns: 200, stderr: true)
        }
        #expect(!(try onTerminal()).contains("note: the catalogue was last ingested"))
        try Self.age(catalogue, days: 8)
        let stale = try onTerminal()
        #expect(stale.contains("note: the catalogue was last ingested 8 days ago"), "\(stale)")
        #expect(stale.contains("Example Enterprise In House"), "the table is still shown")
        // Not on a pipe: scripts get their JSON untouched and no notice.
        let piped = try catalogue.run(["profiles", "--team", "ENTRP12345"])
        #expect(piped.stderr.isEmpty)
    }
}
