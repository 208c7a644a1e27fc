import CatalogTestSupport
import Foundation
import Testing

/// Issue 53 §5: a zip whose top level holds one `.app` (a macOS app as Developer ID distribution
/// ships it) is a build of kind `zip`, read in place; bundles nested in an `.ipa`'s or a zip's app
/// (a watch app, an extension, a system extension) are builds of their own, as in an `.app` folder.
/// Run as a user runs them, on `Fixtures/codesign`'s zips and `Signed.ipa`.
@Suite(.timeLimit(.minutes(5))) struct ZipBuildTests {
    static let codesign = CatalogProcess.fixtures + "/codesign"
    static let asOf = ["--as-of", "2026-09-01"]
    /// `SignedMac.app/Contents/MacOS/SignedMac`'s x86_64 slice, as the macOS crash report names it.
    static let macUUID = "D7247A2C-2A44-66BD-EBB1-7B6F9A5FD60B"
    /// `Signed.ipa`'s watch app, `Payload/Signed.app/Watch/SignedWatch.app/SignedWatch` (arm64_32).
    static let watchUUID = "15D9DEEA-F36C-19CC-ED8C-1C035B364238"

    struct Setup: CatalogueFixture {
        let scratch: Scratch
        var tree: String { scratch.path + "/builds" }
        var db: String { scratch.path + "/catalog.sqlite" }

        init() throws {
            scratch = try Scratch()
            try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
            for name in ["SignedMac.zip", "SignedMacCodeModified.zip", "NotAnApp.zip", "Signed.ipa"] {
                try FileManager.default.copyItem(atPath: ZipBuildTests.codesign + "/" + name, toPath: tree + "/" + name)
            }
        }

        func ingest() throws -> CatalogProcess.Result {
            let result = try CatalogProcess.run(["ingest", tree, "--db", db])
            #expect(result.status == 0, "\(result.stderr)")
            return result
        }

        /// `kind path app_path parent_bundle_id` of every build, the tree's prefix taken off.
        func builds(_ extra: [String] = []) throws -> [String] {
            try records(["builds"] + extra).map {
                [$0["source_kind"] as? String ?? "?", ($0["path"] as? String ?? "").replacingOccurrences(of: tree + "/", with: ""),
                 $0["app_path"] as? String ?? "-", $0["parent_bundle_id"] as? String ?? "-"].joined(separator: " ")
            }.sorted()
        }
    }

    @Test func zipBuildsAndNestedBundlesAreListedWithTheirKindAndParent() throws {
        let setup = try Setup()
        let first = try setup.ingest()
        #expect(!first.stderr.contains("warning"), "\(first.stderr)")
        #expect(first.stderr.contains("1 skipped (1 zip without an app or dSYMs)"), "two apps at the top is no build: \(first.stderr)")
        let sysext = "SignedMac.app/Contents/Library/SystemExtensions/com.example.mac.filter.systemextension"
        #expect(try setup.builds() == [
            "ipa Signed.ipa Payload/Signed.app -",
            "ipa Signed.ipa Payload/Signed.app/AppClips/SignedClip.app com.example.app",
            "ipa Signed.ipa Payload/Signed.app/PlugIns/Widget.appex com.example.app",
            "ipa Signed.ipa Payload/Signed.app/Watch/SignedWatch.app com.example.app",
            "zip SignedMac.zip SignedMac.app -",
            "zip SignedMac.zip \(sysext) com.example.mac",
            "zip SignedMacCodeModified.zip SignedMac.app -",
            "zip SignedMacCodeModified.zip \(sysext) com.example.mac",
        ])
        // The watch app is found by its own UUID, as its own build and inside the app that holds it.
        let watch = try setup.records(["builds", "--uuid", Self.watchUUID])
        #expect(Set(watch.compactMap { $0["bundle_id"] as? String }) == ["com.example.app.watchkitapp", "com.example.app"], "\(watch)")
        // The zip's embedded profile is recorded where it is, in the zip.
        let show = try setup.run(["show", "0149F438-8850-4DD5-A903-F0CFDDA7F3F9", "--json"])
        let profile = try CatalogProcess.json(show.stdout) as? [String: Any]
        let locations = (profile?["locations"] as? [[String: Any]] ?? []).map {
            "\($0["container_kind"] as? String ?? "?") \(($0["path"] as? String ?? "").replacingOccurrences(of: setup.tree + "/", with: ""))"
        }
        #expect(locations.sorted() == ["zip SignedMac.zip!SignedMac.app/Contents/embedded.provisionprofile",
                                       "zip SignedMacCodeModified.zip!SignedMac.app/Contents/embedded.provisionprofile"], "\(locations)")
        // A crash report of the macOS app finds the zip build (run under Rosetta: the x86_64 UUID).
        let crash = try setup.run(["crash", CatalogProcess.fixtures + "/crash/signed-mac.crash", "--json"])
        let report = try #require((try CatalogProcess.json(crash.stdout) as? [[String: Any]])?.first)
        let main = report["main_image"] as? [String: Any]
        #expect(main?["uuid"] as? String == Self.macUUID)
        #expect(Set((main?["builds"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String })
                == [setup.tree + "/SignedMac.zip", setup.tree + "/SignedMacCodeModified.zip"], "\(crash.stdout)")
        #expect(crash.status == 0, "\(crash.stderr)")

        // Unchanged: nothing is read again, nothing changes.
        let second = try setup.ingest()
        #expect(second.stderr.contains("(read 0, 4 unchanged)"), "\(second.stderr)")
        #expect(second.stderr.contains("8 builds (+0 new, 0 removed)"), "\(second.stderr)")
    }

    @Test func aZipThatNoLongerHoldsTheAppLosesItsBuilds() throws {
        let setup = try Setup()
        _ = try setup.ingest()
        // The same name, now a zip of two apps: no build, left out; what it held is removed.
        let zip = setup.tree + "/SignedMac.zip"
        try FileManager.default.removeItem(atPath: zip)
        try FileManager.default.copyItem(atPath: Self.codesign + "/NotAnApp.zip", toPath: zip)
        let again = try setup.ingest()
        #expect(again.stderr.contains("(+0 new, 2 removed)"), "\(again.stderr)")
        #expect(!(try setup.builds()).contains { $0.hasPrefix("zip SignedMac.zip ") })
        #expect(try setup.builds(["--removed"]).filter { $0.hasPrefix("zip SignedMac.zip ") }.count == 2)
    }

    @Test func verifyChecksAZipBuildAsItChecksTheApp() throws {
        let clean = try CatalogProcess.run(["verify", Self.codesign + "/SignedMac.zip", "--json"] + Self.asOf)
        let record = try #require((try CatalogProcess.json(clean.stdout) as? [[String: Any]])?.first)
        let problems = record["signing_problems"] as? [[String: Any]] ?? []
        // The fixtures' CA is not Apple's: that, on each of the three executables, and nothing else.
        #expect(problems.map { $0["code"] as? String } == Array(repeating: "certificate-not-apple", count: 3), "\(clean.stdout)")
        #expect(problems.map { $0["executable"] as? String }.contains("SignedMac.app/Contents/MacOS/SignedMac"))
        #expect(record["profile_uuid"] as? String == "0149F438-8850-4DD5-A903-F0CFDDA7F3F9")
        #expect(record["launches_until_executable"] as? String == "SignedMac.app/Contents/MacOS/SignedMac")
        #expect(clean.status == 1, "the test CA's profile signature is untrusted")

        let tampered = try CatalogProcess.run(["verify", Self.codesign + "/SignedMacCodeModified.zip", "--json"] + Self.asOf)
        let broken = try #require((try CatalogProcess.json(tampered.stdout) as? [[String: Any]])?.first)
        let found = (broken["signing_problems"] as? [[String: Any]] ?? []).filter { $0["code"] as? String != "certificate-not-apple" }
        #expect(found.map { "\($0["code"] as? String ?? "?") \($0["executable"] as? String ?? "?")" }
                == ["code-modified SignedMac.app/Contents/MacOS/SignedMac"], "\(tampered.stdout)")

        // A zip that holds no app is no build: said so, exit 1.
        let other = try CatalogProcess.run(["verify", Self.codesign + "/NotAnApp.zip", "--json"])
        #expect(other.status == 1)
        #expect((other.stdout + other.stderr).contains("nor one .app at its top"), "\(other.stdout)\(other.stderr)")
    }
}
