import CatalogTestSupport
import Foundation
import Testing

/// `builds` and `show` give each build's signing facts as the catalogue kept them: the signing
/// status and identity in their tables, `executables`, `dsyms` and `signing_problems` in their JSON
/// as `verify` finds them, the dated problems at `--as-of`.
@Suite(.timeLimit(.minutes(10))) struct BuildSigningTests {
    /// `Fixtures/codesign` (one build per problem code) in a catalogue of its own.
    final class Catalogue: CatalogueFixture {
        let scratch: Scratch
        let tree: String
        var db: String { scratch.file("catalog.sqlite") }

        init() throws {
            scratch = try Scratch()
            tree = try scratch.copyFixtures("codesign", to: "builds")
            let result = try CatalogProcess.run(["ingest", tree, "--db", db])
            #expect(result.status == 0, "ingest failed: \(result.stderr)")
        }
    }

    /// Before the fixture profile `Example App AdHoc` expires (2026-12-01), and after.
    static let before = "2026-09-01", after = "2026-12-20"

    static func codes(_ record: [String: Any]) -> [String] {
        (record["signing_problems"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    /// The CLI trusts Apple's roots only, so every executable the fixtures' CA signed is
    /// `certificate-not-apple`, and that comes first; the problems each fixture was made for follow.
    static func otherCodes(_ record: [String: Any]) -> [String] { codes(record).filter { $0 != "certificate-not-apple" } }

    /// The status a build has once `certificate-not-apple` is put aside (what each fixture is for).
    static func status(_ record: [String: Any], order: [String]) -> String {
        otherCodes(record).min { order.firstIndex(of: $0) ?? .max < order.firstIndex(of: $1) ?? .max } ?? "ok"
    }

    @Test func eachBuildsStatusIsItsFirstProblemAtTheDate() throws {
        let catalogue = try Catalogue()
        let expected: [(String, String, String)] = [
            ("Signed.app", "ok", "profile-expired"), ("Signed.ipa", "ok", "profile-expired"),
            ("Signed.xcarchive", "ok", "profile-expired"), ("SignedMac.app", "ok", "ok"),
            ("Unsigned.app", "unsigned", "unsigned"), ("AdHoc.app", "ad-hoc", "ad-hoc"), ("NoProfile.app", "no-profile", "no-profile"),
            ("WrongCertificate.app", "certificate-not-in-profile", "certificate-not-in-profile"),
            ("OtherTeam.app", "team-mismatch", "team-mismatch"),
            ("WrongBundleID.app", "bundle-id-not-covered", "bundle-id-not-covered"),
            ("ExtraEntitlements.app", "entitlement-not-allowed", "entitlement-not-allowed"),
            ("ExpiredProfile.app", "profile-expired", "profile-expired"),
            ("ExpiredCertificate.app", "certificate-expired", "certificate-expired"),
            // Two problems after the expiry: the first in the documented order.
            ("Debuggable.app", "get-task-allow-mismatch", "profile-expired"),
        ]
        let order = [
            "unsigned", "ad-hoc", "signature-unreadable", "signature-invalid", "certificate-not-apple", "code-modified",
            "info-plist-modified", "resources-seal-modified", "entitlements-modified", "entitlements-mismatch",
            "resource-modified", "resource-missing", "resource-added", "nested-code-modified", "no-profile",
            "certificate-not-in-profile", "team-mismatch", "bundle-id-not-covered", "entitlement-not-allowed",
            "profile-expired", "certificate-expired", "get-task-allow-mismatch",
        ]
        // Builds the fixtures' CA signed: their status is certificate-not-apple.
        let unsignedByCA: Set<String> = ["Unsigned.app", "AdHoc.app"]
        for (date, column) in [(Self.before, 1), (Self.after, 2)] {
            let records = try catalogue.records(["builds", "--as-of", date])
            let table = try catalogue.run(["builds", "--format", "table", "--as-of", date])
            #expect(table.stdout.contains("SIGNING") && table.stdout.contains("SIGNED BY"))
            for row in expected {
                let made = column == 1 ? row.1 : row.2
                let status = unsignedByCA.contains(row.0) ? made : "certificate-not-apple"
                let path = catalogue.tree + "/" + row.0
                let record = try #require(records.first { $0["path"] as? String == path }, "\(row.0)")
                #expect(record["signing_status"] as? String == status, "\(row.0) at \(date)")
                #expect(Self.codes(record).first == (status == "ok" ? nil : status), "\(row.0) at \(date): \(Self.codes(record))")
                #expect(Self.status(record, order: order) == made, "\(row.0) at \(date): \(Self.codes(record))")
                // The table's line for the build says the same.
                let line = table.stdout.split(separator: "\n").first { $0.hasSuffix(path) }
                #expect(line?.contains(" " + status + " ") == true, "\(row.0) at \(date): \(line ?? "")")
            }
        }
    }

    @Test func theJSONCarriesWhatVerifyFinds() throws {
        let catalogue = try Catalogue()
        for date in [Self.before, Self.after] {
            // A bundle nested in an .ipa has no path of its own to verify: the .ipa's verify checks it with its app.
            for record in try catalogue.records(["builds", "--as-of", date])
            where record["parent_bundle_id"] is NSNull || record["source_kind"] as? String == "app" {
                let path = try #require(record["path"] as? String)
                let verify = try CatalogProcess.run(["verify", path, "--json", "--as-of", date])
                let verified = try #require((try CatalogProcess.json(verify.stdout) as? [[String: Any]])?.first, "\(path)")
                let problems = record["signing_problems"] as? [[String: Any]] ?? []
                #expect(NSArray(array: problems).isEqual(to: verified["signing_problems"] as? [Any] ?? []), "\(path) at \(date)")
                #expect(record["executables"] is [Any] && record["dsyms"] is [Any])
            }
        }
        let archive = try #require(try catalogue.records(["builds", "--as-of", Self.before])
            .first { $0["path"] as? String == catalogue.tree + "/Signed.xcarchive" })
        let executables = archive["executables"] as? [[String: Any]] ?? []
        let main = try #require(executables.first)
        #expect(main["role"] as? String == "main" && main["path"] as? String == "Products/Applications/Signed.app/Signed")
        let signature = try #require(main["code_signature"] as? [String: Any])
        #expect(signature["certificate_name"] as? String == archive["signing_certificate_name"] as? String)
        #expect((signature["entitlements"] as? [String: Any])?["get-task-allow"] as? Bool == false)
        #expect((archive["dsyms"] as? [[String: Any]])?.count == 2)
        #expect(executables.contains { $0["role"] as? String == "watch-app" && ($0["architectures"] as? [Any])?.count == 2 })
    }

    @Test func showListsItsBuildsWithTheirSigning() throws {
        let catalogue = try Catalogue()
        let adhoc = "080B4AFF-C595-4955-AEED-8B8810E698FC"
        for date in [Self.before, Self.after] {
            let show = try catalogue.run(["show", adhoc, "--json", "--as-of", date])
            let object = try #require(try CatalogProcess.json(show.stdout) as? [String: Any])
            let builds = object["builds"] as? [[String: Any]] ?? []
            let listed = try catalogue.records(["builds", "--profile", adhoc, "--as-of", date])
            #expect(!builds.isEmpty && builds.count == listed.count)
            for build in builds {
                let row = try #require(listed.first { $0["path"] as? String == build["path"] as? String })
                for key in ["signing_status", "signing_certificate_name", "executables", "dsyms", "signing_problems"] {
                    #expect((build[key] as? NSObject)?.isEqual(row[key]) == true, "\(key) of \(build["path"] ?? "")")
                }
            }
            let table = try catalogue.run(["show", adhoc, "--format", "table", "--as-of", date])
            #expect(table.stdout.contains("SIGNING"))
            let line = table.stdout.split(separator: "\n").first { $0.contains(catalogue.tree + "/Signed.app") && !$0.contains("embedded") }
            #expect(line?.contains(" certificate-not-apple ") == true, "\(line ?? "")")
            let signed = try #require(builds.first { $0["path"] as? String == catalogue.tree + "/Signed.app" })
            #expect(Self.otherCodes(signed).first == (date == Self.before ? nil : "profile-expired"), "\(Self.codes(signed))")
        }
    }
}
