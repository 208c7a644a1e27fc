import CatalogCore
import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// Issue 52 §9: names sort as people read them, ignoring case (`alpha`, `Beta`, `gamma`, not
/// `Beta`, `alpha`, `gamma`), in listings and name lookups, on SQLite and PostgreSQL alike.
@Suite(.timeLimit(.minutes(5))) struct NameOrderTests {
    private static let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01

    private static func profile(_ uuid: String, name: String) -> ProvisioningProfile {
        var profile = ProvisioningProfile(
            uuid: uuid, name: name, appIDName: "app", applicationIdentifierPrefixes: ["TEAM000001"],
            teamIdentifiers: ["TEAM000001"], teamName: "Team", platforms: ["iOS"], creationDate: start,
            expirationDate: start.addingTimeInterval(400 * 86_400), devices: ["D1"], provisionsAllDevices: false,
            xcodeManaged: false, ppqCheck: false, timeToLive: 365, version: 1,
            entitlements: PlistDictionary([("application-identifier", .string("TEAM000001.com.example.\(uuid)"))]),
            certificates: [], derEncodedProfile: nil, unknownKeys: PlistDictionary(),
            rawPlist: Array("<plist/>".utf8), envelopeCertificateCount: 0)
        profile.sha256 = Digest.sha256Hex(Array(uuid.utf8))
        return profile
    }

    private static func scenario(_ catalogue: Catalogue) throws {
        let writer = catalogue.writer
        try catalogue.writeRun {
            let run = try writer.beginRun(roots: ["/p"], at: start)
            for (uuid, name) in [("U1", "Beta team profile"), ("U2", "alpha team profile"), ("U3", "gamma team profile"),
                                 ("U4", "Alpha team profile")] {
                let profile = profile(uuid, name: name)
                _ = try writer.upsertProfile(profile, at: start)
                try writer.recordLocation(path: "/p/\(uuid).mobileprovision", profileUUID: uuid, containerKind: .standalone,
                                          containerPath: nil, size: 1, mtime: start, sha256: profile.sha256, at: start)
            }
            try writer.finishRun(run, counts: RunCounts(), status: .ok, at: start)
        }
        var filter = CatalogQueries.ProfileFilter()
        filter.scope = .any
        filter.now = start
        let listed = try catalogue.queries.profiles(filter).map(\.name)
        // Equal but for case: the byte order breaks the tie, so the order stays total.
        #expect(listed == ["Alpha team profile", "alpha team profile", "Beta team profile", "gamma team profile"])
        filter.expiringBy = start.addingTimeInterval(500 * 86_400)
        #expect(try catalogue.queries.profiles(filter).map(\.name) == listed, "same expiry: by name, ignoring case")
        #expect(try catalogue.queries.profiles(named: "team").map(\.name) == listed)
    }

    @Test func sqliteSortsNamesIgnoringCase() throws {
        let folder = try Scratch()
        try Self.scenario(try Catalogue.openForWriting(path: folder.file("catalog.sqlite")))
    }

    @Test(.enabled(if: PostgresTestDatabase.enabled, PostgresTestDatabase.skipReason))
    func postgreSQLSortsNamesIgnoringCase() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        try Self.scenario(try Catalogue.openForWriting(path: database.url, host: "build-01", busyTimeout: 10))
    }
}
