import CatalogTestSupport
import Foundation
import Testing

/// Issue 52 §2: `expiring --notify-at` announces an item once per threshold it reaches, when it
/// enters the window and when it expires, remembering what it said in a state file of its own;
/// run day after day with `--as-of` as a nightly cron would.
@Suite(.timeLimit(.minutes(10))) struct NotifyTests {
    final class Catalogue: CatalogueFixture {
        let scratch: Scratch
        var db: String { scratch.file("catalog.sqlite") }
        var state: String { scratch.file("state/notified.json") }
        let tree: String

        init(_ files: [String]) throws {
            scratch = try Scratch()
            tree = scratch.file("tree")
            try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
            for file in files { try add(file) }
            try ingest()
        }

        func add(_ file: String) throws {
            let name = (file as NSString).lastPathComponent
            try FileManager.default.copyItem(atPath: CatalogProcess.fixtures + "/" + file, toPath: tree + "/" + name)
        }

        func ingest() throws {
            let result = try run(["ingest", tree, "--quiet"])
            #expect(result.status == 0, "\(result.stderr)")
        }

        /// One night's run: the UUIDs announced and the exit status.
        func night(_ day: String, _ extra: [String] = []) throws -> (uuids: [String], status: Int32) {
            let result = try run(["expiring", "--notify-at", "60,30,14,7,1", "--state", state, "--as-of", day,
                                  "--exit-code", "--json"] + extra)
            let rows = try CatalogProcess.json(result.stdout) as? [[String: Any]] ?? []
            return (rows.compactMap { $0["uuid"] as? String }, result.status)
        }
    }

    static let adhoc = "44C6C3D6-6720-46AD-AD64-9FC192DFFA1E"   // renew-adhoc-old: expires 2026-12-01T10:00Z

    static func days(from start: String, to end: String) -> [String] {
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withFullDate]
        var day = format.date(from: start)!
        let last = format.date(from: end)!
        var out: [String] = []
        while day <= last {
            out.append(format.string(from: day))
            day += 86_400
        }
        return out
    }

    @Test func eachThresholdIsAnnouncedOnceAndExpiryOnce() throws {
        let catalogue = try Catalogue(["renewals/renew-adhoc-old.mobileprovision"])
        var announced: [String] = []
        for day in Self.days(from: "2026-09-20", to: "2026-12-10") {
            let night = try catalogue.night(day)
            #expect(night.status == (night.uuids.isEmpty ? 0 : 2), "\(day)")
            if night.uuids.contains(Self.adhoc) { announced.append(day) }
        }
        // 60, 30, 14, 7 and 1 days left, then the day after it expired.
        #expect(announced == ["2026-10-02", "2026-11-01", "2026-11-17", "2026-11-24", "2026-11-30", "2026-12-02"])
        let state = try String(contentsOfFile: catalogue.state, encoding: .utf8)
        #expect(state.contains("profile:" + Self.adhoc))
        let permissions = try FileManager.default.attributesOfItem(atPath: catalogue.state)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
    }

    @Test func aSkippedNightAnnouncesTheStageItReached() throws {
        let catalogue = try Catalogue(["renewals/renew-adhoc-old.mobileprovision"])
        #expect(try catalogue.night("2026-11-20").uuids == [Self.adhoc], "first seen in the window, at 11 days")
        #expect(try catalogue.night("2026-11-21").uuids.isEmpty)
        // The cron did not run from the 22nd to the 28th: the 7-day stage is announced late, once.
        #expect(try catalogue.night("2026-11-29").uuids == [Self.adhoc])
        #expect(try catalogue.night("2026-11-30").uuids == [Self.adhoc], "1 day left")
        // Something that had already expired before the first run is not announced.
        let late = try Catalogue(["renewals/renew-adhoc-old.mobileprovision"])
        #expect(try late.night("2027-02-01").uuids.isEmpty)
        #expect(try late.night("2027-02-01", ["--include-expired"]).uuids.isEmpty, "it is remembered as expired already")
    }

    @Test func aRenewalClearsWhatItRenews() throws {
        let catalogue = try Catalogue(["renewals/renew-adhoc-old.mobileprovision"])
        #expect(try catalogue.night("2026-11-20").uuids == [Self.adhoc])
        try catalogue.add("renewals/renew-adhoc-new.mobileprovision")
        try catalogue.ingest()
        #expect(try catalogue.night("2026-11-25").uuids.isEmpty, "the renewal supersedes it")
        let state = try String(contentsOfFile: catalogue.state, encoding: .utf8)
        #expect(!state.contains(Self.adhoc), "forgotten once renewed")
        // The renewal goes away again: the old profile is announced as new.
        try FileManager.default.removeItem(atPath: catalogue.tree + "/renew-adhoc-new.mobileprovision")
        try catalogue.ingest()
        #expect(try catalogue.night("2026-11-26").uuids == [Self.adhoc])
    }

    @Test func listingsWithOtherFiltersKeepTheirOwnState() throws {
        let catalogue = try Catalogue(["renewals/renew-adhoc-old.mobileprovision", "profiles/ios-enterprise.mobileprovision"])
        #expect(try catalogue.night("2026-11-20", ["--team", "TEAM123456"]).uuids == [Self.adhoc])
        #expect(try catalogue.night("2026-11-20", ["--team", "ENTRP12345"]).uuids.count == 1)
        // The first listing's state survived the second's run.
        #expect(try catalogue.night("2026-11-21", ["--team", "TEAM123456"]).uuids.isEmpty)
    }

    /// What was announced lives in the state file alone: the catalogue is not written, so a reader
    /// with read-only rights to a shared catalogue can run it.
    @Test func theCatalogueIsNotWritten() throws {
        let catalogue = try Catalogue(["renewals/renew-adhoc-old.mobileprovision"])
        let before = try Data(contentsOf: URL(fileURLWithPath: catalogue.db))
        #expect(try catalogue.night("2026-11-20").uuids == [Self.adhoc])
        #expect(try catalogue.night("2026-11-21").uuids.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: catalogue.db)) == before)
    }

    @Test func buildsAreAnnouncedTheSameWay() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("codesign/Signed.app", to: "tree/Signed.app")
        let db = scratch.file("catalog.sqlite"), state = scratch.file("notified.json")
        #expect(try CatalogProcess.run(["ingest", (tree as NSString).deletingLastPathComponent, "--db", db, "--quiet"]).status == 0)
        func night(_ day: String) throws -> (paths: [String], status: Int32) {
            let result = try CatalogProcess.run(["expiring", "--builds", "--notify-at", "30,7", "--state", state, "--as-of", day,
                                                 "--exit-code", "--json", "--db", db])
            let rows = try CatalogProcess.json(result.stdout) as? [[String: Any]] ?? []
            return (rows.compactMap { $0["path"] as? String }, result.status)
        }
        // Signed.app and its widget (a build of its own) stop launching with their ad-hoc profiles,
        // 2026-12-01; its watch app embeds no profile and is never listed.
        let both: Set<String> = [tree, tree + "/PlugIns/Widget.appex"]
        #expect(try night("2026-10-15").paths.isEmpty)
        let entered = try night("2026-11-05")
        #expect(Set(entered.paths) == both && entered.status == 2)
        #expect(try night("2026-11-06").status == 0)
        #expect(Set(try night("2026-11-24").paths) == both)
        #expect(Set(try night("2026-12-02").paths) == both, "they stopped launching")
        #expect(try night("2026-12-03").paths.isEmpty)
    }

    @Test func badValuesAreUsageErrors() throws {
        let catalogue = try Catalogue(["renewals/renew-adhoc-old.mobileprovision"])
        for value in ["soon", "30,,7", "-1"] {
            let result = try catalogue.run(["expiring", "--notify-at", value])
            #expect(result.status == 64, "\(value): \(result.stderr)")
        }
        #expect(try catalogue.run(["expiring", "--state", catalogue.state]).status == 64)
        try "not a state".write(toFile: catalogue.scratch.file("other.json"), atomically: true, encoding: .utf8)
        let foreign = try catalogue.run(["expiring", "--notify-at", "30", "--state", catalogue.scratch.file("other.json")])
        #expect(foreign.status == 1 && foreign.stderr.contains("other.json"), "\(foreign.stderr)")
        #expect(try String(contentsOfFile: catalogue.scratch.file("other.json"), encoding: .utf8) == "not a state")
    }
}
