import CatalogTestSupport
import Foundation
import Testing

/// Every command's JSON output has exactly the keys `docs/json-schema.md` documents: none printed
/// that is not documented, none documented that is never printed.
@Suite(.timeLimit(.minutes(10))) struct JSONSchemaTests {
    typealias Catalogue = QueryCommandTests.Catalogue

    /// `### section` → the keys in its table's first column.
    static func documented() throws -> [String: Set<String>] {
        let text = try String(contentsOfFile: TestPaths.packageRoot + "/docs/json-schema.md", encoding: .utf8)
        var sections: [String: Set<String>] = [:]
        var current: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("### ") { current = String(line.dropFirst(4)); sections[current!] = [] }
            guard let section = current, line.hasPrefix("| `") else { continue }
            let key = line.dropFirst(3).prefix { $0 != "`" }
            sections[section, default: []].insert(String(key))
        }
        return sections
    }

    static func keys(_ objects: [[String: Any]]) -> Set<String> { Set(objects.flatMap(\.keys)) }

    static func objects(_ value: Any?) -> [[String: Any]] {
        if let list = value as? [[String: Any]] { return list }
        if let object = value as? [String: Any] { return [object] }
        return []
    }

    @Test func everyCommandPrintsExactlyTheDocumentedKeys() throws {
        let documented = try Self.documented()
        let catalogue = try Catalogue()
        func list(_ arguments: [String]) throws -> [[String: Any]] { try catalogue.records(arguments) }
        func object(_ arguments: [String]) throws -> [String: Any] {
            let result = try catalogue.run(arguments + ["--json"])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return try CatalogProcess.json(result.stdout) as? [String: Any] ?? [:]
        }
        func decode(_ path: String) throws -> [String: Any] {
            try CatalogProcess.json(try CatalogProcess.run(["decode", CatalogProcess.fixtures + "/" + path]).stdout) as? [String: Any] ?? [:]
        }
        let expiring = try list(["expiring", "--as-of", "2026-11-20", "--days", "400", "--include-superseded", "--include-expired"])
        let device = try list(["devices", "5f330264dc8133e0af2a2ce52f1b2e23b81cf3f4", "--as-of", "2026-11-20"])
        let show = try object(["show", "44C6C3D6-6720-46AD-AD64-9FC192DFFA1E"])
        let adhoc = try object(["show", "080B4AFF-C595-4955-AEED-8B8810E698FC"])
        let stats = try object(["stats"])
        let decodedProfile = try decode("profiles/ios-development.mobileprovision")
        let undecodable = try decode("lenient/undecodable-certificates.mobileprovision")
        let undecodableShown = try object(["show", undecodable["uuid"] as? String ?? "-"])
        let decodedBuilds = try ["bundles/Example.app", "ipa/Example.ipa", "bundles/Example.xcarchive", "plists/app-xml.plist",
                                 "codesign/Signed.xcarchive", "codesign/Unsigned.app"].map(decode)
        let executables = decodedBuilds.flatMap { Self.objects($0["executables"]) }
        let dsyms = decodedBuilds.flatMap { Self.objects($0["dsyms"]) }
        let prune = try catalogue.run(["prune", CatalogProcess.fixtures + "/renewals", "--json", "--as-of", "2026-11-20"])
        let installFolder = try Scratch()
        let install = try catalogue.run(["install", "--dir", installFolder.path, "--allow-untrusted", "--json",
                                         CatalogProcess.fixtures + "/profiles/ios-development.mobileprovision",
                                         CatalogProcess.fixtures + "/malformed/empty.mobileprovision"])
        let samples: [String: [[String: Any]]] = [
            "profile row": try list(["profiles", "--bundle-id", "com.example.app"]) + expiring.filter { $0["type"] as? String == "profile" }
                + device.filter { $0["type"] as? String == "profile" },
            "certificate row": try list(["certificates"]) + expiring.filter { $0["type"] as? String == "certificate" },
            "build row": try list(["builds"]) + (try list(["expiring", "--builds", "--as-of", "2026-11-20", "--days", "400"]))
                + device.filter { $0["type"] as? String == "build" }
                + (try Catalogue(ingesting: [CatalogProcess.fixtures + "/codesign/Signed.xcarchive"])
                    .records(["builds", "--uuid", "22F2EF0F-3CB2-B91A-AD73-2F5B5124AF60"])),
            "version row": try list(["versions", "com.example.app"]),
            "crash": try Catalogue(ingesting: [CatalogProcess.fixtures + "/codesign/Signed.xcarchive"])
                .records(["crash", CatalogProcess.fixtures + "/crash/signed.ips"])
                + (try Catalogue(ingesting: [CatalogProcess.fixtures + "/symbolication"])
                    .records(["crash", CatalogProcess.fixtures + "/symbolication/demo.ips", "--symbolicate", "--all-threads"])),
            "device row": try list(["devices"]),
            "run row": try list(["runs"]),
            "error row": try list(["errors"]),
            "prune row": (try CatalogProcess.json(prune.stdout) as? [[String: Any]]) ?? [],
            "install row": (try CatalogProcess.json(install.stdout) as? [[String: Any]]) ?? [],
            "verify row": (try CatalogProcess.json(try catalogue.run(["verify", CatalogProcess.fixtures + "/signatures/good.mobileprovision",
                                                                      "080B4AFF-C595-4955-AEED-8B8810E698FC"]).stdout) as? [[String: Any]]) ?? [],
            "show": [show, adhoc],
            "show.certificates[]": Self.objects(show["certificates"]) + Self.objects(adhoc["certificates"]),
            "show.undecodable_certificates[]": Self.objects(undecodableShown["undecodable_certificates"]),
            "show.locations[]": Self.objects(adhoc["locations"]),
            "show.builds[]": Self.objects(adhoc["builds"]),
            "show.renewals[]": Self.objects(show["renewals"]),
            "stats": [stats],
            "stats.last_run": Self.objects(stats["last_run"]),
            "stats.hosts": Self.objects(stats["hosts"]),
            "decode profile": [decodedProfile] + decodedBuilds.flatMap { Self.objects($0["profile"]) },
            "decode profile.certificates[]": Self.objects(decodedProfile["certificates"]),
            "decode profile.undecodable_certificates[]": Self.objects(undecodable["undecodable_certificates"]),
            "decode build": decodedBuilds,
            "decode build.executables[]": executables,
            "decode build.executables[].architectures[]": (executables + dsyms).flatMap { Self.objects($0["architectures"]) },
            "decode build.executables[].code_signature": executables.flatMap { Self.objects($0["code_signature"]) },
            "decode build.dsyms[]": dsyms,
            "decode build.signing_problems[]": decodedBuilds.flatMap { Self.objects($0["signing_problems"]) },
        ]
        #expect(Set(samples.keys) == Set(documented.keys), "every documented section is sampled")
        for (section, objects) in samples {
            #expect(!objects.isEmpty, "\(section): no sample")
            let printed = Self.keys(objects)
            let expected = documented[section] ?? []
            // A decoded build's profile carries no path; a profile row's bundle_id_match comes only with --bundle-id.
            #expect(printed.subtracting(expected).isEmpty, "\(section): printed but not documented: \(printed.subtracting(expected).sorted())")
            #expect(expected.subtracting(printed).isEmpty, "\(section): documented but never printed: \(expected.subtracting(printed).sorted())")
        }
    }
}
