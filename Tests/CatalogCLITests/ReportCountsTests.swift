import CatalogTestSupport
import Foundation
import Testing

/// Issue 52 §5: every count the report prints is what the command it cites lists, with the same
/// filters (as-of, window, team, scope, superseded): each cited command is run and its rows counted.
@Suite(.timeLimit(.minutes(10))) struct ReportCountsTests {
    /// One of the report's groups: its section's title, the command that lists the whole group,
    /// and how many of that command's rows belong to it.
    struct Group {
        var title: String
        var command: String
        var counts: ([String: Any]) -> Bool = { _ in true }
    }

    static func groups(days: Int) -> [Group] {
        [Group(title: "Expiring within \(days) days", command: "expiring --days \(days) --include-superseded",
               counts: { $0["type"] as? String == "profile" }),
         Group(title: "Expired but still installed", command: "profiles --installed --expired"),
         Group(title: "Certificates by expiry", command: "certificates --in-use --expiring --days \(days)"),
         Group(title: "Certificates by expiry", command: "certificates --in-use --expired"),
         Group(title: "Latest build per app", command: "builds --latest --launching"),
         Group(title: "Latest build per app", command: "builds --latest --expired")]
    }

    /// The report's sections by title: the table's row count (nil without a table), "… and N more"
    /// with the command it cites, and each "N … expired; `command` lists them." sentence.
    static func sections(_ markdown: String) -> [String: (rows: Int?, more: (Int, String)?, expired: [(Int, String)])] {
        var sections: [String: (rows: Int?, more: (Int, String)?, expired: [(Int, String)])] = [:]
        for chunk in markdown.components(separatedBy: "\n### ").dropFirst() {
            let lines = chunk.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let tableLines = lines.filter { $0.hasPrefix("| ") }
            var entry: (rows: Int?, more: (Int, String)?, expired: [(Int, String)]) = (tableLines.isEmpty ? nil : tableLines.count - 1, nil, [])
            for line in lines {
                if let match = line.firstMatch(of: /^… and (\d+) more \(`catalog ([^`]+)` lists all\)\.$/) {
                    entry.more = (Int(match.1) ?? -1, String(match.2))
                } else if let match = line.firstMatch(of: /^(\d+) [^`]+; `catalog ([^`]+)` lists them\.$/) {
                    entry.expired.append((Int(match.1) ?? -1, String(match.2)))
                }
            }
            sections[lines[0]] = entry
        }
        return sections
    }

    @Test(arguments: [("2026-12-05", 400, nil), ("2027-06-01", 30, nil), ("2028-06-01", 400, "TEAM123456"),
                      ("2026-12-05", 400, "ENTRP12345"), ("2027-01-20", 90, nil)] as [(String, Int, String?)])
    func everyCountIsTheCitedCommandsCount(asOf: String, days: Int, team: String?) throws {
        let catalogue = try Catalogue()
        let filters = ["--as-of", asOf] + (team.map { ["--team", $0] } ?? [])
        let report = try catalogue.run(["report", "--days", String(days)] + filters)
        #expect(report.status == 0, "\(report.stderr)")
        let sections = Self.sections(report.stdout)
        var checked = 0
        for group in Self.groups(days: days) {
            let section = try #require(sections[group.title], "no section \(group.title) in\n\(report.stdout)")
            let arguments = group.command.split(separator: " ").map(String.init) + filters
            let listed = try catalogue.records(arguments).filter(group.counts).count
            let cited = "\(group.command) \(filters.joined(separator: " "))"
            let isExpiredGroup = group.command.contains("--expired")
            if isExpiredGroup {
                // A count and its command, or no sentence when nothing has expired.
                let sentence = section.expired.first { $0.1 == cited }
                #expect(sentence?.0 ?? 0 == listed, "\(cited): the report says \(sentence?.0 ?? 0), the command lists \(listed)")
                #expect(sentence != nil || listed == 0, "\(cited) lists \(listed) but the report cites nothing")
            } else {
                // The table's rows and "… and N more": together what the cited command lists.
                let shown = (section.rows ?? 0) + (section.more?.0 ?? 0)
                #expect(shown == listed, "\(group.title) (\(asOf), \(days) days, team \(team ?? "any")): the report shows \(shown), `\(cited)` lists \(listed)")
                if let more = section.more { #expect(more.1 == cited) }
            }
            checked += listed
        }
        #expect(checked > 0, "the fixtures give every report something to count")
    }

    /// A catalogue of the fixtures with builds that stop launching (codesign/ and integrity/ too).
    final class Catalogue: CatalogueFixture {
        private let scratch: Scratch
        var db: String { scratch.path + "/catalog.sqlite" }

        init() throws {
            scratch = try Scratch()
            let roots = ["profiles", "renewals", "report", "bundles", "codesign", "integrity"].map { CatalogProcess.fixtures + "/" + $0 }
            let result = try CatalogProcess.run(["ingest"] + roots + ["--db", db, "--quiet"])
            #expect(result.status == 0, "ingest failed: \(result.stderr)")
        }
    }
}
