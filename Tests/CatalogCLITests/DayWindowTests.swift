import CatalogTestSupport
import Foundation
import Testing

/// The day rule (README, "Days"): `days_left` counts whole UTC days from `--as-of`'s day, and a
/// window of N days lists exactly what has `days_left` 0 through N, in every command that takes
/// one. Each case puts `--as-of` N days before a fixture's expiry, at the first and the last second
/// of a UTC day, and asks each command with `--days` N-1, N and N+1.
@Suite(.timeLimit(.minutes(10))) struct DayWindowTests {
    typealias Catalogue = QueryCommandTests.Catalogue

    static let adhoc = "080B4AFF-C595-4955-AEED-8B8810E698FC"  // expires 2026-12-01T10:00:00Z

    /// `--as-of` values around `expiry` with the `days_left` the rule gives each: the same day
    /// before and after the expiry's moment (0: "today", not yet expired), the day before at its
    /// last second (1), 64 and 90 days before at both ends of the day, one second before the
    /// midnight that starts the 64th day (65), and the first second of the next day (-1, expired).
    static func cases(_ expiry: String) -> [(asOf: String, daysLeft: Int)] {
        [(0, "00:00:00", 0), (0, "23:59:59", 0), (1, "23:59:59", 1), (64, "00:00:00", 64), (64, "23:59:59", 64),
         (65, "23:59:59", 65), (90, "00:00:00", 90), (90, "23:59:59", 90), (-1, "00:00:00", -1)].map { before, time, left in
            (day(expiry, minus: before) + "T" + time + "Z", left)
        }
    }

    /// The UTC day `days` days before `expiry`'s, as `YYYY-MM-DD`.
    static func day(_ expiry: String, minus days: Int) -> String {
        let start = QueryCommandTests.date(String(expiry.prefix(10)))
        return String(ISO8601DateFormatter().string(from: start.addingTimeInterval(Double(-days) * 86_400)).prefix(10))
    }

    /// Asks `listed` (the item's `days_left` when the command lists it at `asOf` with `--days`,
    /// else nil) around `expiry`: listed with its days left by `--days` at or above them, not by
    /// a smaller window, and (unless `expiredListed`, for `--include-expired`) never once expired.
    static func checkWindows(_ expiry: String, minimumDays: Int = 0, expiredListed: Bool = false,
                             _ listed: (_ asOf: String, _ days: Int) throws -> Int?) throws {
        for (asOf, daysLeft) in cases(expiry) {
            for days in [daysLeft - 1, daysLeft, daysLeft + 1] where days >= minimumDays {
                let inWindow = days >= daysLeft && (daysLeft >= 0 || expiredListed)
                let got = try listed(asOf, days)
                #expect(got == (inWindow ? daysLeft : nil), "--as-of \(asOf) --days \(days): days_left \(daysLeft)")
            }
        }
    }

    static func daysLeft(_ records: [[String: Any]], _ key: String, _ value: String) -> Int? {
        records.first { $0[key] as? String == value }.flatMap { $0["days_left"] as? Int }
    }

    @Test func expiringListsAProfileByTheDaysItShows() throws {
        let catalogue = try Catalogue()
        try Self.checkWindows("2026-12-01T10:00:00Z") { asOf, days in
            Self.daysLeft(try catalogue.records(["expiring", "--as-of", asOf, "--days", String(days)]), "uuid", Self.adhoc)
        }
        // The table says what JSON says: "in 64 days" is listed by --days 64.
        for (asOf, daysLeft) in Self.cases("2026-12-01T10:00:00Z") where daysLeft >= 0 {
            let table = try catalogue.run(["expiring", "--as-of", asOf, "--days", String(daysLeft), "--format", "table",
                                           "--team", "TEAM123456", "--kind", "ad-hoc"]).stdout
            let row = table.split(separator: "\n").first { $0.contains("Example App AdHoc") }.map(String.init) ?? ""
            #expect(row.contains(daysLeft == 0 ? "today" : "in \(daysLeft) day"), "\(asOf): \(row)")
        }
    }

    @Test func expiringListsACertificateByTheDaysItShows() throws {
        let catalogue = try Catalogue()
        // The visionOS profile's certificate expires at midnight exactly; its profile expired long
        // before, so --include-expired keeps the profile (and so its certificate) in scope.
        let sha1 = "5ECB73A1B92F2CDA62067C1AC7344C709652FFE1"
        try Self.checkWindows("2027-09-09T00:00:00Z", expiredListed: true) { asOf, days in
            Self.daysLeft(try catalogue.records(["expiring", "--as-of", asOf, "--days", String(days), "--include-expired"]),
                          "sha1", sha1)
        }
    }

    @Test func expiringBuildsListsABuildByTheDaysItShows() throws {
        let catalogue = try Catalogue()
        try Self.checkWindows("2026-12-01T10:00:00Z") { asOf, days in
            try catalogue.records(["expiring", "--builds", "--as-of", asOf, "--days", String(days)])
                .first { ($0["path"] as? String ?? "").hasSuffix("/ipa/Example.ipa") }.flatMap { $0["days_left"] as? Int }
        }
    }

    @Test func certificatesExpiringListsACertificateByTheDaysItShows() throws {
        let catalogue = try Catalogue()
        let sha1 = "EE7D8F62"
        try Self.checkWindows("2027-11-20T14:29:59Z") { asOf, days in
            try catalogue.records(["certificates", "--expiring", "--as-of", asOf, "--days", String(days)])
                .first { ($0["sha1"] as? String ?? "").hasPrefix(sha1) }.flatMap { $0["days_left"] as? Int }
        }
        // --expired and --valid split at the same place: expired from the day after.
        for (asOf, daysLeft) in Self.cases("2027-11-20T14:29:59Z") {
            let expired = try catalogue.records(["certificates", "--expired", "--as-of", asOf])
            let valid = try catalogue.records(["certificates", "--valid", "--as-of", asOf])
            #expect(expired.contains { ($0["sha1"] as? String ?? "").hasPrefix(sha1) } == (daysLeft < 0), "\(asOf)")
            #expect(valid.contains { ($0["sha1"] as? String ?? "").hasPrefix(sha1) } == (daysLeft >= 0), "\(asOf)")
        }
    }

    @Test func theReportListsByTheDaysItShows() throws {
        let catalogue = try Catalogue()
        try Self.checkWindows("2026-12-01T10:00:00Z", minimumDays: 1) { asOf, days in
            let markdown = try catalogue.run(["report", "--as-of", asOf, "--days", String(days)]).stdout
            let html = try catalogue.run(["report", "--format", "html", "--as-of", asOf, "--days", String(days)]).stdout
            let row = markdown.split(separator: "\n").first { $0.hasPrefix("| 2026-12-01 |") && $0.contains("| Example App AdHoc |") }
            let htmlRow = html.contains("<tr data-uuid=\"\(Self.adhoc)\" class=\"week\">")
                || html.contains("<tr data-uuid=\"\(Self.adhoc)\" class=\"window\">")
            #expect((row != nil) == htmlRow, "\(asOf) --days \(days): Markdown and HTML agree")
            return row.flatMap { Int($0.split(separator: "|")[1].trimmingCharacters(in: .whitespaces)) }
        }
    }

    @Test func pruneTakesAProfileFromTheDayAfterItExpired() throws {
        let setup = try PruneTests.Setup(renewals: ["renew-adhoc-old", "renew-adhoc-new"], profiles: [])
        defer { try? FileManager.default.removeItem(atPath: setup.folder) }
        for (asOf, daysLeft) in Self.cases("2026-12-01T10:00:00Z") {
            let (result, records) = try setup.prune(["--expired", "--as-of", asOf])
            #expect(result.status == 0, "\(result.stderr)")
            let old = PruneTests.byPath(records)["renew-adhoc-old.mobileprovision"]
            #expect((old?["reason"] as? String) == (daysLeft < 0 ? "expired" : nil), "\(asOf): days_left \(daysLeft)")
        }
        // `profiles --expired` says the same.
        for (asOf, daysLeft) in Self.cases("2026-12-01T10:00:00Z") {
            let expired = try CatalogProcess.run(["profiles", "--expired", "--as-of", asOf, "--db", setup.db, "--json"]).stdout
            #expect(expired.contains("44C6C3D6") == (daysLeft < 0), "\(asOf): days_left \(daysLeft)")
        }
    }
}
