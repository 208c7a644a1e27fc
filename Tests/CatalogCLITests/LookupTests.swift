import CatalogTestSupport
import Foundation
import Testing

/// Lookups find what people type: any case, the usual platform names, wildcard app ids, array
/// entitlements, certificate digests as Keychain Access prints them, profiles by name.
@Suite(.timeLimit(.minutes(10))) struct LookupTests {
    typealias Catalogue = QueryCommandTests.Catalogue

    static func uuids(_ records: [[String: Any]]) -> Set<String> { Set(records.compactMap { $0["uuid"] as? String }) }

    @Test func teamDeviceAndBundleIDsInAnyCase() throws {
        let catalogue = try Catalogue()
        let upper = try catalogue.records(["profiles", "--team", "TEAM123456"])
        #expect(!upper.isEmpty)
        #expect(Self.uuids(try catalogue.records(["profiles", "--team", "team123456"])) == Self.uuids(upper))
        let udid = try #require(try catalogue.records(["devices"]).first?["udid"] as? String)
        let asWritten = try catalogue.records(["devices", udid])
        #expect(!asWritten.isEmpty)
        for typed in [udid.uppercased(), udid.lowercased()] {
            #expect(Self.uuids(try catalogue.records(["devices", typed])) == Self.uuids(asWritten), "\(typed)")
            #expect(Self.uuids(try catalogue.records(["profiles", "--device", typed])) == Self.uuids(asWritten))
        }
        let builds = try catalogue.records(["builds", "com.example.app"])
        #expect(!builds.isEmpty)
        #expect(try catalogue.records(["builds", "COM.Example.App"]).count == builds.count)
        #expect(try catalogue.records(["versions", "Com.Example.APP"]).count == (try catalogue.records(["versions", "com.example.app"])).count)
        #expect(try catalogue.records(["certificates", "--team", "team123456"]).count
                == (try catalogue.records(["certificates", "--team", "TEAM123456"])).count)
    }

    @Test func platformNamesAndAliases() throws {
        let catalogue = try Catalogue()
        let osx = Self.uuids(try catalogue.records(["profiles", "--platform", "OSX"]))
        #expect(!osx.isEmpty)
        for typed in ["macOS", "macos", "MacOSX"] {
            #expect(Self.uuids(try catalogue.records(["profiles", "--platform", typed])) == osx, "\(typed)")
        }
        let ios = Self.uuids(try catalogue.records(["profiles", "--platform", "iOS"]))
        #expect(ios.contains("710905E4-A5D8-4F5D-A37E-E84F4BE086E2"), "a profile without Platform is iOS")
        #expect(Self.uuids(try catalogue.records(["profiles", "--platform", "iphoneos"])) == ios)
        let vision = Self.uuids(try catalogue.records(["profiles", "--platform", "visionOS"]))
        let xros = Self.uuids(try catalogue.records(["profiles", "--platform", "xros"]))
        #expect(!vision.isEmpty && xros == vision)
        let unknown = try catalogue.run(["profiles", "--platform", "foo"])
        #expect(unknown.status == 64)
        for name in ["iOS", "macOS", "tvOS", "watchOS", "visionOS"] { #expect(unknown.stderr.contains(name)) }
        // fastlane's `adhoc` is taken (issue 52 §8); a kind that is none names the accepted ones.
        #expect(try catalogue.run(["profiles", "--kind", "adhoc"]).status == 0)
        let kind = try catalogue.run(["profiles", "--kind", "beta"])
        #expect(kind.status == 64)
        for name in ["development", "ad-hoc", "app-store", "enterprise", "developer-id"] { #expect(kind.stderr.contains(name)) }
    }

    @Test func bundleIDFindsTheWildcardProfilesThatCoverIt() throws {
        let catalogue = try Catalogue()
        let records = try catalogue.records(["profiles", "--bundle-id", "com.example.app"])
        let match = Dictionary(uniqueKeysWithValues: records.compactMap { record in
            (record["uuid"] as? String).map { ($0, record["bundle_id_match"] as? String ?? "") }
        })
        #expect(match["080B4AFF-C595-4955-AEED-8B8810E698FC"] == "exact")
        #expect(match["1C2572BC-366E-44CD-AC23-F1DF78DD5080"] == "wildcard")  // com.example.*
        #expect(match["710905E4-A5D8-4F5D-A37E-E84F4BE086E2"] == "wildcard")  // *
        let exact = try catalogue.records(["profiles", "--bundle-id", "COM.EXAMPLE.APP", "--exact"])
        #expect(Self.uuids(exact) == Set(match.filter { $0.value == "exact" }.keys))
        #expect(exact.allSatisfy { $0["bundle_id_match"] == nil })
        #expect(try catalogue.run(["profiles", "--exact"]).status == 64)
    }

    @Test func entitlementValueMatchesOneMemberOfAnArray() throws {
        let catalogue = try Catalogue()
        let withKey = Self.uuids(try catalogue.records(["profiles", "--entitlement", "keychain-access-groups"]))
        #expect(!withKey.isEmpty)
        #expect(Self.uuids(try catalogue.records(["profiles", "--entitlement", "keychain-access-groups=com.apple.token"])) == withKey)
        #expect(try catalogue.records(["profiles", "--entitlement", "keychain-access-groups=com.apple"]).isEmpty)
        let production = try catalogue.records(["profiles", "--entitlement", "aps-environment=production"])
        #expect(!production.isEmpty && production.allSatisfy { $0["aps_environment"] as? String == "production" })
    }

    @Test func certificateBySHA1SHA256PrefixOrName() throws {
        let catalogue = try Catalogue()
        let certificate = try #require(try catalogue.records(["certificates"]).first { ($0["profile_count"] as? Int ?? 0) > 0 })
        let sha1 = try #require(certificate["sha1"] as? String)
        let sha256 = try #require(certificate["sha256"] as? String)
        let expected = Self.uuids(try catalogue.records(["profiles", "--certificate", sha1]))
        #expect(!expected.isEmpty)
        func pairs(_ hex: String, _ separator: String) -> String {
            stride(from: 0, to: hex.count, by: 2).map { offset -> String in
                let start = hex.index(hex.startIndex, offsetBy: offset)
                return String(hex[start..<hex.index(start, offsetBy: 2)])
            }.joined(separator: separator)
        }
        for typed in [sha1.lowercased(), pairs(sha1, ":").lowercased(), pairs(sha1, " "), sha256, sha256.lowercased(),
                      String(sha256.prefix(8)), String(sha1.prefix(10)).lowercased()] {
            #expect(Self.uuids(try catalogue.records(["profiles", "--certificate", typed])) == expected, "\(typed)")
        }
        let name = try #require(certificate["common_name"] as? String)
        #expect(Self.uuids(try catalogue.records(["profiles", "--certificate", name.lowercased()])).isSuperset(of: expected))
        let unknown = try catalogue.run(["profiles", "--certificate", "0000000000"])
        #expect(unknown.status == 1 && unknown.stderr.contains("'0000000000'"))
    }

    @Test func showByUUIDInAnyCasePathOrUniqueName() throws {
        let catalogue = try Catalogue()
        func shownUUID(_ target: String) throws -> String? {
            let result = try catalogue.run(["show", target, "--json"])
            #expect(result.status == 0, "\(target): \(result.stderr)")
            return (try? CatalogProcess.json(result.stdout) as? [String: Any])?["uuid"] as? String
        }
        #expect(try shownUUID("080b4aff-c595-4955-aeed-8b8810e698fc") == "080B4AFF-C595-4955-AEED-8B8810E698FC")
        #expect(try shownUUID("Example App AdHoc") == "080B4AFF-C595-4955-AEED-8B8810E698FC")
        #expect(try shownUUID("example app adhoc") == "080B4AFF-C595-4955-AEED-8B8810E698FC")
        #expect(try shownUUID("Widget AdHoc") == "4C8FEABD-CB00-430B-A481-B35AEC317985")
        #expect(try shownUUID(CatalogProcess.fixtures + "/profiles/ios-adhoc.mobileprovision") == "080B4AFF-C595-4955-AEED-8B8810E698FC")
        let ambiguous = try catalogue.run(["show", "AdHoc"])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.stderr.contains("080B4AFF-C595-4955-AEED-8B8810E698FC") && ambiguous.stderr.contains("4C8FEABD-CB00-430B-A481-B35AEC317985"))
        let missing = try catalogue.run(["show", "No Such Profile"])
        #expect(missing.status == 1 && missing.stderr.contains("'No Such Profile'"))
    }

    @Test func removedMeansOnlyRemovedAndIncludeRemovedMeansBoth() throws {
        let scratch = try Scratch()
        let tree = scratch.path
        let fm = FileManager.default
        try fm.createDirectory(atPath: tree, withIntermediateDirectories: true)
        try fm.copyItem(atPath: CatalogProcess.fixtures + "/bundles/Example.app", toPath: tree + "/Example.app")
        try fm.copyItem(atPath: CatalogProcess.fixtures + "/ipa/Example.ipa", toPath: tree + "/Example.ipa")
        try fm.copyItem(atPath: CatalogProcess.fixtures + "/profiles/ios-appstore.mobileprovision", toPath: tree + "/appstore.mobileprovision")
        let catalogue = try Catalogue(ingesting: [tree])
        try fm.removeItem(atPath: tree + "/Example.ipa")
        try fm.removeItem(atPath: tree + "/appstore.mobileprovision")
        #expect(try catalogue.run(["ingest", tree]).status == 0)

        let present = try catalogue.records(["builds", "com.example.app"])
        let removed = try catalogue.records(["builds", "com.example.app", "--removed"])
        let both = try catalogue.records(["builds", "com.example.app", "--include-removed"])
        #expect(!present.isEmpty && !removed.isEmpty)
        #expect(present.allSatisfy { $0["removed_at"] is NSNull } && removed.allSatisfy { $0["removed_at"] is String })
        #expect(both.count == present.count + removed.count)
        let table = try catalogue.run(["builds", "com.example.app", "--include-removed", "--format", "table"])
        #expect(table.stdout.contains("REMOVED"))
        let csv = try catalogue.run(["builds", "com.example.app", "--include-removed", "--format", "csv"])
        #expect(csv.stdout.hasPrefix("type,bundle_id,") && csv.stdout.contains(",removed_at,"))
        #expect(try catalogue.records(["versions", "com.example.app", "--removed"]).map { $0["short_version"] as? String } == ["2.0"])

        let gone = Self.uuids(try catalogue.records(["profiles", "--removed"]))
        #expect(gone == ["930A1813-B3BA-4B98-AE76-B3B24E907A89"])
        let all = Self.uuids(try catalogue.records(["profiles", "--include-removed"]))
        #expect(all == gone.union(Self.uuids(try catalogue.records(["profiles"]))))
        #expect(try catalogue.run(["builds", "--removed", "--include-removed"]).status == 64)
    }

    @Test func globalOptionsBeforeTheSubcommandAndSuggestions() throws {
        let catalogue = try Catalogue()
        let before = try CatalogProcess.run(["--db", catalogue.db, "--json", "profiles", "--team", "ENTRP12345"])
        #expect(before.status == 0, "\(before.stderr)")
        #expect((try CatalogProcess.json(before.stdout) as? [Any])?.count == 1)
        let inline = try CatalogProcess.run(["--db=\(catalogue.db)", "stats", "--json"])
        #expect(inline.status == 0, "\(inline.stderr)")
        let help = try CatalogProcess.run(["--help", "expiring"])
        #expect(help.status == 0 && help.stdout.hasPrefix("OVERVIEW: List profiles and certificates"))
        let subcommand = try CatalogProcess.run(["expirng"])
        #expect(subcommand.status == 64 && subcommand.stderr.contains("did you mean 'expiring'?"))
        let option = try catalogue.run(["expiring", "--dasy", "3"])
        #expect(option.status == 64 && option.stderr.contains("did you mean '--days'?"))
        let far = try CatalogProcess.run(["frobnicate"])
        #expect(far.status == 64 && !far.stderr.contains("did you mean"))
    }
}

/// `certificates` by type, expiry and name; every certificate row and `show` carry its type.
@Suite(.timeLimit(.minutes(10))) struct CertificateListingTests {
    typealias Catalogue = QueryCommandTests.Catalogue

    @Test func certificatesByTypeExpiryAndName() throws {
        let catalogue = try Catalogue()
        let all = try catalogue.records(["certificates"])
        #expect(all.allSatisfy { $0.keys.contains("certificate_type") })
        #expect(all.contains { $0["certificate_type"] as? String == "Apple Development" })
        let development = try catalogue.records(["certificates", "--type", "apple-development"])
        #expect(!development.isEmpty && development.allSatisfy { $0["certificate_type"] as? String == "Apple Development" })
        #expect(development.count == all.filter { $0["certificate_type"] as? String == "Apple Development" }.count)
        let two = try catalogue.records(["certificates", "--type", "Apple Distribution", "--type", "iphone-developer"])
        #expect(Set(two.compactMap { $0["certificate_type"] as? String }) == ["Apple Distribution", "iPhone Developer"])
        let bad = try catalogue.run(["certificates", "--type", "developer"])
        #expect(bad.status == 64 && bad.stderr.contains("apple-development"))

        let expired = try catalogue.records(["certificates", "--expired", "--as-of", "2026-11-20"])
        let valid = try catalogue.records(["certificates", "--valid", "--as-of", "2026-11-20"])
        #expect(!expired.isEmpty && !valid.isEmpty && expired.count + valid.count == all.count)
        #expect(expired.allSatisfy { ($0["days_left"] as? Int ?? 0) < 0 })
        let jane = try catalogue.records(["certificates", "--name", "jane doe"])
        #expect(!jane.isEmpty && jane.allSatisfy { ($0["common_name"] as? String)?.contains("Jane Doe") == true })

        let detail = try CatalogProcess.json(try catalogue.run(["show", "080B4AFF-C595-4955-AEED-8B8810E698FC", "--json"]).stdout) as? [String: Any]
        let certificates = detail?["certificates"] as? [[String: Any]] ?? []
        #expect(certificates.first?["certificate_type"] as? String == "Apple Distribution")
    }
}
