import CatalogTestSupport
import Foundation
import Testing

/// Renewed profiles stop alerting: a profile superseded by a present renewal (same team, app id,
/// kind and platform, later effective expiry) leaves `expiring`, and is marked everywhere else.
/// Fixtures: `Fixtures/renewals/`, made by `Fixtures/scripts/make_renewals.py`.
@Suite(.timeLimit(.minutes(10))) struct RenewalTests {
    typealias Catalogue = QueryCommandTests.Catalogue

    static let adhocOld = "44C6C3D6-6720-46AD-AD64-9FC192DFFA1E"
    static let adhocNew = "4AA98B40-F571-4848-AF74-0DF1523AE283"
    static let wildcardOld = "91B8EB25-2D8A-427D-AB52-082426516FFF"
    static let wildcardNew = "510AD1F3-691F-4BF3-AF63-F9D81D66FF98"
    static let window = ["expiring", "--as-of", "2026-11-20", "--days", "30"]

    static func profiles(_ records: [[String: Any]]) -> [String: Any] {
        Dictionary(records.filter { $0["type"] as? String == "profile" }.compactMap { record in
            (record["uuid"] as? String).map { ($0, record["superseded_by"] as Any) }
        }, uniquingKeysWith: { first, _ in first })
    }

    /// A catalogue of a temp folder holding copies of the named renewal fixtures.
    static func tree(_ names: [String]) throws -> (folder: String, catalogue: Catalogue) {
        let folder = TestPaths.temporary + "catalog-renewals-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(atPath: CatalogProcess.fixtures + "/renewals/\(name).mobileprovision",
                                             toPath: folder + "/\(name).mobileprovision")
        }
        return (folder, try Catalogue(ingesting: [folder]))
    }

    @Test func aPresentRenewalSupersedesAndSilencesTheOldProfile() throws {
        let catalogue = try Catalogue()
        let listed = Self.profiles(try catalogue.records(Self.window))
        #expect(listed[Self.adhocOld] == nil, "a renewed profile must not alert")
        #expect(listed["080B4AFF-C595-4955-AEED-8B8810E698FC"] is NSNull, "an unrenewed one still does, superseded_by null")
        let all = Self.profiles(try catalogue.records(Self.window + ["--include-superseded"]))
        #expect(all[Self.adhocOld] as? String == Self.adhocNew)
        #expect(all[Self.wildcardOld] as? String == Self.wildcardNew, "a wildcard app id renews like any other")
        let table = try catalogue.run(Self.window + ["--include-superseded", "--format", "table"])
        #expect(table.stdout.contains("SUPERSEDED BY") && table.stdout.contains(Self.adhocNew))

        #expect(Set(Self.profiles(try catalogue.records(["profiles", "--superseded"])).keys) == [Self.adhocOld, Self.wildcardOld])
        let current = Self.profiles(try catalogue.records(["profiles", "--current"]))
        #expect(current[Self.adhocNew] != nil && current[Self.adhocOld] == nil)
        #expect(current.values.allSatisfy { $0 is NSNull })
        #expect(try catalogue.run(["profiles", "--superseded", "--current"]).status == 64)
    }

    @Test func aRenewalRemovedAgainNoLongerSupersedes() throws {
        let (folder, catalogue) = try Self.tree(["renew-adhoc-old", "renew-adhoc-new"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(Self.profiles(try catalogue.records(Self.window))[Self.adhocOld] == nil)
        #expect(try catalogue.run(Self.window + ["--exit-code"]).status == 0, "nothing to renew: no alert")
        try FileManager.default.removeItem(atPath: folder + "/renew-adhoc-new.mobileprovision")
        #expect(try catalogue.run(["ingest", folder]).status == 0)
        let listed = Self.profiles(try catalogue.records(Self.window))
        #expect(listed.keys.contains(Self.adhocOld))
        #expect(listed[Self.adhocOld] is NSNull)
        #expect(try catalogue.run(Self.window + ["--exit-code"]).status == 2)
    }

    @Test func aLaterProfileOfAnotherKindIsNotARenewal() throws {
        let (folder, catalogue) = try Self.tree(["renew-adhoc-old", "renew-development"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let listed = Self.profiles(try catalogue.records(Self.window))
        #expect(listed.keys.contains(Self.adhocOld))
        #expect(listed[Self.adhocOld] is NSNull)
        #expect(try catalogue.records(["profiles", "--superseded"]).isEmpty)
    }

    // MARK: Only a trustworthy profile renews another

    static let bareUUID = "11111111-1111-4111-8111-111111111111"

    /// The plist inside a profile's CMS envelope.
    static func payload(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let start = try #require(data.range(of: Data("<?xml".utf8))?.lowerBound)
        let end = try #require(data.range(of: Data("</plist>".utf8))?.upperBound)
        return try #require(try PropertyListSerialization.propertyList(from: data.subdata(in: start..<end), format: nil)
            as? [String: Any])
    }

    /// Writes `plist` as a bare XML plist, what anyone can write (its signature is `unsigned`).
    static func writeBare(_ plist: [String: Any], to path: String) throws {
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            .write(to: URL(fileURLWithPath: path))
    }

    static func date(_ text: String) throws -> Date { try #require(ISO8601DateFormatter().date(from: text)) }

    static func prune(_ folder: String, _ catalogue: Catalogue, _ arguments: [String]) throws -> [String: [String: Any]] {
        let result = try catalogue.run(["prune", folder, "--json"] + arguments, environment: ["HOME": folder, "XDG_DATA_HOME": ""])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try CatalogProcess.json(result.stdout) as? [[String: Any]] ?? []
        return Dictionary(rows.compactMap { row in (row["uuid"] as? String).map { ($0, row) } }, uniquingKeysWith: { first, _ in first })
    }

    @Test func aBarePlistDoesNotRenewASignedProfile() throws {
        let (folder, catalogue) = try Self.tree(["renew-adhoc-old"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The old profile's own content, a new UUID and a later expiry, as a plain plist.
        var plist = try Self.payload(folder + "/renew-adhoc-old.mobileprovision")
        plist["UUID"] = Self.bareUUID
        plist["ExpirationDate"] = try Self.date("2027-06-01T00:00:00Z")
        try Self.writeBare(plist, to: folder + "/X.mobileprovision")
        #expect(try catalogue.run(["ingest", folder]).status == 0)
        #expect(try catalogue.records(["profiles", "--signature", "unsigned"]).map { $0["uuid"] as? String } == [Self.bareUUID])

        let listed = Self.profiles(try catalogue.records(Self.window))
        #expect(listed[Self.adhocOld] is NSNull, "the signed profile still alerts")
        #expect(try catalogue.run(Self.window + ["--exit-code"]).status == 2)
        #expect(try catalogue.records(["profiles", "--superseded"]).isEmpty)
        #expect(try Self.prune(folder, catalogue, ["--superseded", "--as-of", "2026-11-20"]).isEmpty)
        let show = try CatalogProcess.json(try catalogue.run(["show", Self.adhocOld, "--json"]).stdout) as? [String: Any]
        #expect((show?["renewals"] as? [Any])?.isEmpty == true, "nor is it listed as a renewal")
        let runs = try catalogue.records(["runs"])
        #expect(runs.first?["profiles_renewed"] as? Int == 0 && runs.first?["profiles_new"] as? Int == 1)
    }

    /// Apple-signed profiles exist only in the real corpus: a bare plist claiming to renew one.
    @Test(.enabled(if: TestPaths.realCorpus != nil, "needs ../shared/real-corpus beside the checkout"))
    func aBarePlistNeitherSilencesNorPrunesAnAppleSignedProfile() throws {
        let verified = "52C92548-6A20-45C0-A72E-8A8C748E52BF"
        let (folder, catalogue) = try Self.tree([])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: (TestPaths.realCorpus ?? "") + "/tree/samjan190799-cmyk__Focal/embedded.mobileprovision",
                                         toPath: folder + "/Focal.mobileprovision")
        #expect(try catalogue.run(["ingest", folder]).status == 0)
        // Its content with a new UUID, a later expiry and a certificate that outlives it.
        var plist = try Self.payload(folder + "/Focal.mobileprovision")
        plist["UUID"] = Self.bareUUID
        plist["ExpirationDate"] = try Self.date("2028-08-08T00:00:00Z")
        plist["DeveloperCertificates"] = try Self.payload(CatalogProcess.fixtures + "/renewals/renew-adhoc-new.mobileprovision")["DeveloperCertificates"]
        try Self.writeBare(plist, to: folder + "/X.mobileprovision")
        let ingest = try catalogue.run(["ingest", folder])
        #expect(ingest.status == 0)
        #expect(ingest.stderr.contains("profile \(Self.bareUUID) claims to renew verified profile \(verified)"), "\(ingest.stderr)")
        #expect(ingest.stderr.contains("its signature is unsigned"))
        // Both met by one first ingest into an empty catalogue: the same warning, at the bare file.
        let fresh = folder + "-fresh.sqlite"
        defer { try? FileManager.default.removeItem(atPath: fresh) }
        let first = try CatalogProcess.run(["ingest", folder, "--db", fresh])
        #expect(first.status == 0)
        #expect(first.stderr.contains("X.mobileprovision: profile \(Self.bareUUID) claims to renew verified profile \(verified)"),
                "\(first.stderr)")

        let window = ["expiring", "--as-of", "2027-07-20", "--days", "30"]
        #expect(Self.profiles(try catalogue.records(window))[verified] is NSNull, "Apple's profile still alerts")
        #expect(try catalogue.run(window + ["--exit-code"]).status == 2)
        #expect(try Self.prune(folder, catalogue, ["--superseded", "--as-of", "2027-07-20"]).isEmpty)
        // Expired, and the bare plist expires later: still the newest profile of its app id.
        let expired = try Self.prune(folder, catalogue, ["--as-of", "2027-09-01", "--delete"])
        #expect(expired[verified]?["action"] as? String == "kept", "\(expired)")
        #expect(FileManager.default.fileExists(atPath: folder + "/Focal.mobileprovision"))
    }

    // MARK: A renewal clears the certificate alert too

    static let early = "B426B646-3C57-48D1-AA9E-D2ACBAFBB8C6"
    /// The certificate that decides `early`'s expiry (2026-05-15).
    static let earlyCertificate = "3607E09F"
    static let spring = ["expiring", "--as-of", "2026-05-01", "--days", "30"]

    /// A folder holding `cert-expires-first` as a bare plist and its renewal with the certificates
    /// of `ios-development` (both bare: unsigned renews unsigned).
    static func renewedWithNewCertificates() throws -> (folder: String, catalogue: Catalogue) {
        let (folder, catalogue) = try Self.tree([])
        let old = try Self.payload(CatalogProcess.fixtures + "/profiles/cert-expires-first.mobileprovision")
        try Self.writeBare(old, to: folder + "/old.mobileprovision")
        var renewal = old
        renewal["UUID"] = Self.bareUUID
        renewal["DeveloperCertificates"] = try Self.payload(CatalogProcess.fixtures + "/profiles/ios-development.mobileprovision")["DeveloperCertificates"]
        try Self.writeBare(renewal, to: folder + "/renewal.mobileprovision")
        #expect(try catalogue.run(["ingest", folder]).status == 0)
        return (folder, catalogue)
    }

    static func certificates(_ records: [[String: Any]]) -> [String: [String: Any]] {
        Dictionary(records.filter { $0["type"] as? String == "certificate" }.compactMap { record in
            (record["sha1"] as? String).map { (String($0.prefix(8)), record) }
        }, uniquingKeysWith: { first, _ in first })
    }

    @Test func aRenewalWithANewCertificateSilencesTheOldCertificate() throws {
        let (folder, catalogue) = try Self.renewedWithNewCertificates()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try catalogue.records(Self.spring).isEmpty, "neither the old profile nor its certificate alerts")
        #expect(try catalogue.run(Self.spring + ["--exit-code"]).status == 0)

        let all = try catalogue.records(Self.spring + ["--include-superseded"])
        #expect(Self.profiles(all)[Self.early] as? String == Self.bareUUID)
        let certificate = Self.certificates(all)[Self.earlyCertificate]
        #expect(certificate?["superseded_by"] as? String == Self.bareUUID, "marked, as its profile is")
        #expect(certificate?["profile_count"] as? Int == 1)
        let table = try catalogue.run(Self.spring + ["--include-superseded", "--format", "table"])
        let line = table.stdout.split(separator: "\n").first { $0.hasPrefix("certificate") }
        #expect(line?.hasSuffix(Self.bareUUID) == true, "\(table.stdout)")
    }

    @Test func certificateRowsFollowTheKindAndTeamOfTheirProfiles() throws {
        let (folder, catalogue) = try Self.tree([])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: CatalogProcess.fixtures + "/profiles/cert-expires-first.mobileprovision",
                                         toPath: folder + "/early.mobileprovision")
        #expect(try catalogue.run(["ingest", folder]).status == 0)
        let development = try catalogue.records(Self.spring + ["--kind", "development"])
        #expect(Self.certificates(development)[Self.earlyCertificate]?["profile_count"] as? Int == 1,
                "a development profile's certificate alerts under --kind development")
        #expect(Self.profiles(development)[Self.early] != nil)
        #expect(try catalogue.records(Self.spring + ["--kind", "app-store"]).isEmpty)
        #expect(Self.certificates(try catalogue.records(Self.spring + ["--team", "team123456"]))[Self.earlyCertificate] != nil)
        #expect(try catalogue.records(Self.spring + ["--team", "OTHER12345"]).isEmpty)
    }
}
