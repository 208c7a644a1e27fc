import CatalogTestSupport
import Foundation
import Testing
import CatalogTestSupport

/// End-to-end tests of the query commands: the built `catalog` binary against a catalogue made
/// from the fixtures, asserting stdout, stderr and exit status, with `--as-of` for dates.
@Suite(.timeLimit(.minutes(10))) struct QueryCommandTests {
    /// A fresh catalogue holding `Fixtures/` (without `signatures/`, whose profiles `expected.json`
    /// does not list, as `SignatureCommandTests` ingests those; and without `codesign/`, whose
    /// signing fixtures reuse the fixture profiles in builds these tests do not count), in its own
    /// temp folder, removed when the value goes away.
    final class Catalogue: CatalogueFixture {
        private let scratch: Scratch
        var folder: String { scratch.path }
        var db: String { folder + "/catalog.sqlite" }

        init(ingesting roots: [String] = [CatalogProcess.fixtures]) throws {
            scratch = try Scratch()
            let result = try CatalogProcess.run(["ingest"] + roots + ["--db", db, "--exclude", "signatures", "--exclude", "codesign", "--exclude", "integrity"])
            #expect(result.status == 0, "ingest failed: \(result.stderr)")
        }
    }

    static func fixtureProfiles() throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: CatalogProcess.fixtures + "/expected.json"))
        let expected = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        return (expected["profiles"] as? [[String: Any]] ?? []).filter {
            let path = $0["path"] as? String ?? ""
            return ["Fixtures/profiles/", "Fixtures/renewals/", "Fixtures/report/", "Fixtures/lenient/"]
                .contains { path.hasPrefix($0) }
        }
    }

    /// UUIDs of the fixture profiles a renewal supersedes, by the README's definition, computed from
    /// expected.json (every fixture profile is present): another profile of the same team,
    /// application identifier, kind and platforms with a later effective expiry.
    static func supersededFixtureProfiles() throws -> Set<String> { superseded(among: try fixtureProfiles()) }

    /// The UUIDs among `profiles` (expected.json records, all present) that another one supersedes.
    static func superseded(among profiles: [[String: Any]]) -> Set<String> {
        func key(_ profile: [String: Any]) -> String {
            ["team_id", "application_identifier", "kind"].map { profile[$0] as? String ?? "-" }.joined(separator: "|")
                + "|" + (profile["platforms"] as? [String] ?? []).joined(separator: ",")
        }
        return Set(profiles.filter { profile in
            profiles.contains { other in
                key(other) == key(profile)
                    && (other["effective_expiration_date"] as? String ?? "") > (profile["effective_expiration_date"] as? String ?? "")
            }
        }.compactMap { $0["uuid"] as? String })
    }

    static func date(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text) ?? formatter.date(from: text + "T00:00:00Z") ?? .distantPast
    }

    /// `days_left` by the README's day rule, counted here by the calendar: UTC days from `asOf`'s day to `date`'s.
    static func daysLeft(_ date: Date, from asOf: Date) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.dateComponents([.day], from: calendar.startOfDay(for: asOf), to: calendar.startOfDay(for: date)).day ?? .min
    }

    /// Whether `date` falls in a window of `days` days from `asOf`: `days_left` 0 through `days`.
    static func inWindow(_ date: Date, asOf: Date, days: Int) -> Bool { (0...days).contains(daysLeft(date, from: asOf)) }

    /// Whether a profile existed on `asOf`'s day (issue 52 §7): created on it or before.
    static func existed(_ profile: [String: Any], asOf: Date) -> Bool {
        guard let created = profile["creation_date"] as? String else { return true }
        return daysLeft(date(created), from: asOf) <= 0
    }

    // MARK: expiring

    @Test(arguments: [("2026-11-20", 30), ("2026-06-01", 60), ("2026-01-01", 400), ("2030-01-01", 10)])
    func expiringListsExactlyTheProfilesInTheWindow(asOf: String, days: Int) throws {
        let catalogue = try Catalogue()
        let start = Self.date(asOf)
        let expected = Set(try Self.fixtureProfiles().compactMap { profile -> String? in
            let date = Self.date(profile["effective_expiration_date"] as? String ?? "")
            return Self.inWindow(date, asOf: start, days: days) && Self.existed(profile, asOf: start) ? profile["uuid"] as? String : nil
        }).subtracting(try Self.supersededFixtureProfiles())
        let records = try catalogue.records(["expiring", "--as-of", asOf, "--days", String(days)])
        let listed = Set(records.filter { $0["type"] as? String == "profile" }.compactMap { $0["uuid"] as? String })
        #expect(listed == expected)
        // Soonest first, with days left counted from --as-of.
        let dates = records.compactMap { $0["effective_expiration_date"] as? String }
        #expect(dates == dates.sorted())
        for record in records where record["type"] as? String == "profile" {
            let left = record["days_left"] as? Int ?? -1
            let date = Self.date(record["effective_expiration_date"] as? String ?? "")
            #expect(left == Self.daysLeft(date, from: start))
        }
    }

    @Test func expiringIncludeExpiredAndFilters() throws {
        let catalogue = try Catalogue()
        let expired = try catalogue.records(["expiring", "--as-of", "2026-11-20", "--days", "0", "--include-expired"])
        let uuids = Set(expired.compactMap { $0["uuid"] as? String })
        #expect(uuids.contains("710905E4-A5D8-4F5D-A37E-E84F4BE086E2"))  // legacy 2013
        #expect(uuids.contains("B426B646-3C57-48D1-AA9E-D2ACBAFBB8C6"))  // certificate expired first
        let certificateDecided = expired.first { $0["uuid"] as? String == "B426B646-3C57-48D1-AA9E-D2ACBAFBB8C6" }
        #expect(certificateDecided?["expiry_cause"] as? String == "certificate")
        let enterprise = try catalogue.records(["expiring", "--as-of", "2026-11-20", "--days", "100", "--kind", "enterprise"])
        #expect(enterprise.map { $0["uuid"] as? String } == ["C1764A00-333D-41F4-A0B4-A29DCAD39493"])
        let otherTeam = try catalogue.records(["expiring", "--as-of", "2026-11-20", "--days", "100", "--team", "NOPE"])
        #expect(otherTeam.isEmpty)
    }

    @Test func expiringListsCertificatesWithTheirProfileCount() throws {
        let catalogue = try Catalogue()
        // The fixtures' certificates expire in late 2027 (and one in 2052).
        let records = try catalogue.records(["expiring", "--as-of", "2027-10-01", "--days", "120", "--include-expired"])
        let certificates = records.filter { $0["type"] as? String == "certificate" }
        #expect(!certificates.isEmpty)
        for certificate in certificates {
            #expect((certificate["profile_count"] as? Int ?? 0) >= 1)
            #expect((certificate["sha1"] as? String)?.count == 40)
        }
    }

    @Test func expiringExitCodeForCron() throws {
        let catalogue = try Catalogue()
        let listed = try catalogue.run(["expiring", "--as-of", "2026-11-20", "--days", "30", "--exit-code", "--json"])
        #expect(listed.status == 2)
        #expect(listed.stdout.contains("080B4AFF-C595-4955-AEED-8B8810E698FC"))
        let quiet = try catalogue.run(["expiring", "--as-of", "2040-01-01", "--days", "1", "--exit-code", "--json"])
        #expect(quiet.status == 0)
        #expect(quiet.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    // MARK: profiles, show

    @Test func profilesFilters() throws {
        let catalogue = try Catalogue()
        let all = try catalogue.records(["profiles"])
        #expect(all.count == Set(try Self.fixtureProfiles().compactMap { $0["uuid"] as? String }).count)
        #expect(try catalogue.records(["profiles", "--team", "ENTRP12345"]).count == 1)
        #expect(try catalogue.records(["profiles", "--kind", "developer-id"]).map { $0["uuid"] as? String }
                == ["19FAE0BF-704D-4DF5-A498-A97ED30D73DF"])
        #expect(try catalogue.records(["profiles", "--platform", "tvOS"]).map { $0["uuid"] as? String }
                == ["E547912A-B0A5-41BC-A373-EBA8CB4E86BB"])
        // No Platform key reads as iOS.
        #expect(try catalogue.records(["profiles", "--platform", "iOS"]).contains {
            $0["uuid"] as? String == "710905E4-A5D8-4F5D-A37E-E84F4BE086E2" })
        #expect(try catalogue.records(["profiles", "--bundle-id", "com.example.app"]).count >= 3)
        #expect(try catalogue.records(["profiles", "--name", "bare"]).count == 2)
        let production = try catalogue.records(["profiles", "--entitlement", "aps-environment=production"])
        #expect(!production.isEmpty && production.allSatisfy { $0["aps_environment"] as? String == "production" })
        let gta = try catalogue.records(["profiles", "--entitlement", "get-task-allow=true"])
        #expect(!gta.isEmpty && gta.allSatisfy { $0["get_task_allow"] as? Bool == true })
        let expired = try catalogue.records(["profiles", "--expired", "--as-of", "2026-11-20"])
        #expect(Set(expired.compactMap { $0["uuid"] as? String }).contains("710905E4-A5D8-4F5D-A37E-E84F4BE086E2"))
        let valid = try catalogue.records(["profiles", "--valid", "--as-of", "2026-11-20"])
        #expect(expired.count + valid.count == all.count)
        #expect(try catalogue.records(["profiles", "--removed"]).isEmpty)
        #expect(try catalogue.records(["profiles", "--installed"]).count == all.count)

        let device = "cf2a7c46a4133dc358388825e5778ad368eb9c0d"
        let withDevice = try catalogue.records(["profiles", "--device", device])
        #expect(!withDevice.isEmpty)
        #expect(try catalogue.records(["devices", device]).filter { $0["type"] as? String == "profile" }.count == withDevice.count)
        let certificate = try catalogue.records(["certificates"]).first?["sha1"] as? String ?? ""
        #expect(!(try catalogue.records(["profiles", "--certificate", certificate])).isEmpty)

        let both = try catalogue.run(["profiles", "--expired", "--valid"])
        #expect(both.status == 64)
    }

    @Test func showByUUIDAndByPath() throws {
        let catalogue = try Catalogue()
        let byUUID = try catalogue.run(["show", "080b4aff-c595-4955-aeed-8b8810e698fc", "--json"])
        #expect(byUUID.status == 0, "\(byUUID.stderr)")
        let detail = try CatalogProcess.json(byUUID.stdout) as? [String: Any] ?? [:]
        #expect(detail["uuid"] as? String == "080B4AFF-C595-4955-AEED-8B8810E698FC")
        #expect(detail["kind"] as? String == "ad-hoc")
        #expect((detail["entitlements"] as? [String: Any])?["aps-environment"] as? String == "production")
        #expect(!(detail["certificates"] as? [Any] ?? []).isEmpty)
        #expect((detail["devices"] as? [Any] ?? []).count == detail["device_count"] as? Int)
        let locations = detail["locations"] as? [[String: Any]] ?? []
        #expect(locations.contains { $0["container_kind"] as? String == "standalone" })
        #expect(locations.contains { $0["container_kind"] as? String == "app" })
        let builds = detail["builds"] as? [[String: Any]] ?? []
        #expect(Set(builds.compactMap { $0["source_kind"] as? String }) == ["app", "ipa"])
        #expect(detail["renewals"] is [Any])

        let byPath = try catalogue.run(["show", CatalogProcess.fixtures + "/profiles/ios-adhoc.mobileprovision", "--json"])
        #expect(byPath.stdout == byUUID.stdout)
        let missing = try catalogue.run(["show", "00000000-0000-0000-0000-000000000000"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no profile '00000000-0000-0000-0000-000000000000'"))
    }

    // MARK: builds, versions

    @Test func buildsNewestVersionFirst() throws {
        let catalogue = try Catalogue()
        let builds = try catalogue.records(["builds", "com.example.app"])
        #expect(builds.map { $0["formatted_version"] as? String } == ["2.0 (50)", "1.3 (40)", "1.2 (34)"])
        #expect(builds.map { $0["source_kind"] as? String } == ["ipa", "xcarchive", "app"])
        let archive = builds[1]
        #expect(archive["archived_at"] as? String == "2026-02-03T14:05:06Z")
        #expect(archive["app_path"] as? String == "Products/Applications/Example.app")
        #expect(archive["profile_uuid"] as? String == "930A1813-B3BA-4B98-AE76-B3B24E907A89")
        #expect(try catalogue.records(["builds", "--version", "1.3"]).count == 1)
        // The .ipa's app, and its extension and watch app, builds of their own.
        #expect(try catalogue.records(["builds", "--build", "50"]).map { $0["app_path"] as? String } == [
            "Payload/Example.app", "Payload/Example.app/Watch/ExampleWatch.app", "Payload/Example.app/PlugIns/Widget.appex"])
        let embedding = try catalogue.records(["builds", "--profile", "080B4AFF-C595-4955-AEED-8B8810E698FC"])
        #expect(Set(embedding.compactMap { $0["source_kind"] as? String }) == ["app", "ipa"])
        let widget = try catalogue.records(["builds", "com.example.app.widget"])
        #expect(widget.first?["parent_bundle_id"] as? String == "com.example.app")
        #expect(try catalogue.records(["builds", "--since", "2026-02-05"]).allSatisfy {
            ($0["archived_at"] as? String ?? $0["first_seen"] as? String ?? "") >= "2026-02-05" })

        let versions = try catalogue.records(["versions", "com.example.app"])
        #expect(versions.map { $0["short_version"] as? String } == ["2.0", "1.3", "1.2"])
        #expect(versions.first?["build_numbers"] as? [String] == ["50"])
    }

    // MARK: inventory commands

    @Test func certificatesDevicesRunsErrorsStats() throws {
        let catalogue = try Catalogue()
        let certificates = try catalogue.records(["certificates"])
        #expect(!certificates.isEmpty)
        #expect(certificates.allSatisfy { ($0["sha1"] as? String)?.count == 40 })
        let soon = try catalogue.records(["certificates", "--expiring", "--days", "30", "--as-of", "2027-11-01"])
        #expect(!soon.isEmpty && soon.allSatisfy { ($0["days_left"] as? Int ?? -1) <= 30 })
        #expect(try catalogue.run(["certificates", "--days", "3"]).status == 64)

        let devices = try catalogue.records(["devices"])
        #expect(devices.count > 100)
        #expect(devices.allSatisfy { ($0["profile_count"] as? Int ?? 0) >= 1 })

        let runs = try catalogue.records(["runs"])
        #expect(runs.count == 1)
        #expect(runs.first?["status"] as? String == "ok")
        let errors = try catalogue.records(["errors"])
        #expect(errors.count == 9)   // expected.json's `malformed`
        #expect(errors.contains { ($0["path"] as? String)?.hasSuffix("malformed/empty.mobileprovision") == true })

        let stats = try catalogue.run(["stats", "--json"])
        let object = try CatalogProcess.json(stats.stdout) as? [String: Any] ?? [:]
        let migrations = try FileManager.default.contentsOfDirectory(atPath: TestPaths.packageRoot + "/Migrations")
        #expect(object["schema_version"] as? Int == migrations.filter { $0.hasSuffix(".sql") }.count)
        #expect(object["database"] as? String == catalogue.db)
        #expect(object["profiles"] as? Int == Set(try Self.fixtureProfiles().compactMap { $0["uuid"] as? String }).count)
    }

    // MARK: output formats

    @Test(arguments: [["expiring", "--as-of", "2026-11-20", "--days", "60"], ["profiles"], ["builds"],
                      ["versions", "com.example.app"], ["certificates"], ["devices"], ["runs"], ["errors"]])
    func everyFormat(command: [String]) throws {
        let catalogue = try Catalogue()
        let json = try catalogue.run(command + ["--format", "json"])
        #expect(json.status == 0)
        let array = try CatalogProcess.json(json.stdout) as? [[String: Any]] ?? []
        #expect(!array.isEmpty)
        #expect(try catalogue.run(command + ["--json"]).stdout == json.stdout)
        #expect(try catalogue.run(command).stdout == json.stdout, "JSON is the default when stdout is not a terminal")

        let ndjson = try catalogue.run(command + ["--format", "ndjson"])
        let lines = ndjson.stdout.split(separator: "\n")
        #expect(lines.count == array.count)
        for line in lines { #expect((try? CatalogProcess.json(String(line))) is [String: Any]) }

        let csv = try catalogue.run(command + ["--format", "csv"])
        #expect(csv.status == 0)
        #expect(csv.stdout.hasSuffix("\r\n"))
        #expect(csv.stdout.components(separatedBy: "\r\n").count >= array.count + 1)

        let table = try catalogue.run(command + ["--format", "table"])
        #expect(table.status == 0)
        #expect(table.stdout.split(separator: "\n").count == array.count + 1)
        #expect(!table.stdout.contains("\u{1B}"), "no colour when stdout is not a terminal")
    }

    /// `show` and `stats` print one object: pretty JSON, one ndjson line, a CSV header and row, or
    /// `key: value` lines for people.
    @Test(arguments: [["show", "930A1813-B3BA-4B98-AE76-B3B24E907A89"], ["stats"]])
    func singleObjectCommandsInEveryFormat(command: [String]) throws {
        let catalogue = try Catalogue()
        let json = try catalogue.run(command + ["--json"])
        #expect(json.status == 0 && json.stderr.isEmpty)
        #expect(try CatalogProcess.json(json.stdout) is [String: Any])
        let ndjson = try catalogue.run(command + ["--format", "ndjson"])
        #expect(ndjson.stdout.split(separator: "\n").count == 1)
        #expect(try CatalogProcess.json(ndjson.stdout) is [String: Any])
        let csv = try catalogue.run(command + ["--format", "csv"])
        #expect(csv.status == 0)
        #expect(csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count >= 2)
        let table = try catalogue.run(command + ["--format", "table"])
        #expect(table.status == 0)
        let first = table.stdout.split(separator: "\n").first.map(String.init) ?? ""
        let (key, value) = command[0] == "show" ? ("type", "profile") : ("database", catalogue.db)
        #expect(first.hasPrefix(key + " ") && first.hasSuffix("  " + value), "\(first)")
    }

    @Test func emptyResultsAreAnEmptyArray() throws {
        let catalogue = try Catalogue()
        let result = try catalogue.run(["profiles", "--team", "NOBODY", "--json"])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func missingCatalogueSuggestsIngest() throws {
        let path = TestPaths.temporary + "missing-\(UUID().uuidString).sqlite"
        let result = try CatalogProcess.run(["profiles", "--db", path])
        #expect(result.status == 1)
        #expect(result.stderr.contains(path))
        #expect(result.stderr.contains("catalog ingest"))
        #expect(!FileManager.default.fileExists(atPath: path))
        let viaEnvironment = try CatalogProcess.run(["stats"], environment: ["CATALOG_DB": path])
        #expect(viaEnvironment.status == 1)
        #expect(viaEnvironment.stderr.contains(path))
    }

    @Test func controlCharactersInDataNeverReachTheTerminalAndCSVQuotes() throws {
        let scratch = try Scratch()
        let folder = scratch.path
        var plist = try String(contentsOfFile: CatalogProcess.fixtures + "/profiles/bare-plist.mobileprovision", encoding: .utf8)
        plist = plist.replacingOccurrences(of: "Example Bare XML Plist",
                                           with: "Evil \u{1B}[31mRED\u{1B}[0m\tname, &quot;quoted&quot;")
        try plist.write(toFile: folder + "/evil.mobileprovision", atomically: true, encoding: .utf8)
        let catalogue = try Catalogue(ingesting: [folder])
        let table = try catalogue.run(["profiles", "--format", "table"])
        #expect(!table.stdout.contains("\u{1B}"))
        #expect(table.stdout.contains("Evil \\e[31mRED\\e[0m\\tname"))
        let json = try catalogue.run(["profiles", "--json"])
        #expect(!json.stdout.contains("\u{1B}"))
        #expect(json.stdout.contains("\\u001b[31mRED"))
        // RFC 4180: the cell holds a comma and quotes, so it is quoted with its quotes doubled.
        let csv = try catalogue.run(["profiles", "--format", "csv"])
        #expect(csv.stdout.contains("\"Evil \u{1B}[31mRED\u{1B}[0m\tname, \"\"quoted\"\"\""))
    }

    // MARK: real corpus

    /// The listed UUIDs equal those whose effective expiry in the real corpus's expected.json
    /// falls in the window (all locations: many real profiles are embedded in builds).
    @Test(.enabled(if: CatalogProcess.realCorpus != nil, Comment(rawValue: TestPaths.realCorpusAbsent)),
          arguments: [("2021-06-01", 365), ("2019-01-01", 500), ("2026-11-29", 30), ("2024-01-01", 1000)])
    func expiringMatchesTheRealCorpus(asOf: String, days: Int) throws {
        let corpus = CatalogProcess.realCorpus ?? ""
        let catalogue = try Catalogue(ingesting: [corpus + "/tree"])
        let data = try Data(contentsOf: URL(fileURLWithPath: corpus + "/expected.json"))
        let profiles = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["profiles"] as? [[String: Any]] ?? []
        let start = Self.date(asOf)
        let expected = Set(profiles.compactMap { profile -> String? in
            let date = Self.date(profile["effective_expiration_date"] as? String ?? "")
            return Self.inWindow(date, asOf: start, days: days) && Self.existed(profile, asOf: start) ? profile["uuid"] as? String : nil
        }).subtracting(Self.superseded(among: profiles))
        let records = try catalogue.records(["expiring", "--as-of", asOf, "--days", String(days), "--all-locations"])
        let listed = Set(records.filter { $0["type"] as? String == "profile" }.compactMap { $0["uuid"] as? String })
        #expect(listed == expected)
    }
}
