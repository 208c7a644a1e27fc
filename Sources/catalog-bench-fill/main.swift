import CatalogCore
import CatalogStore
import Foundation

// catalog-bench-fill DB [--profiles N] [--builds M]
// Fills a catalogue with deterministic synthetic profiles and builds through the store layer
// (CatalogWriter), so the query benchmark runs against 1,000,000 profiles without decoding files.

func argument(_ name: String, default fallback: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
          let value = Int(arguments[index + 1]), value >= 0 else { return fallback }
    return value
}

guard CommandLine.arguments.count >= 2, !CommandLine.arguments[1].hasPrefix("-") else {
    FileHandle.standardError.write(Data("usage: catalog-bench-fill DB [--profiles N] [--builds M]\n".utf8))
    exit(64)
}
let path = CommandLine.arguments[1]
let profileCount = argument("--profiles", default: 1_000_000)
let buildCount = argument("--builds", default: 200_000)

/// A small deterministic generator (SplitMix64), so every fill is the same catalogue.
struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

func hex(_ value: UInt64, _ width: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - text.count)) + text
}

let reference = ISO8601.parse("2026-11-29T00:00:00Z") ?? Date()
var random = SplitMix(state: 42)
let teams = (0..<50).map { "T\(hex(UInt64($0) &* 7919, 9))" }
let bundles = (0..<500).map { "com.example.app\($0)" }
let certificates: [[DeveloperCertificate]] = teams.enumerated().map { index, team in
    (0..<5).map { n in
        let digest = Digest.sha256Hex(Array("\(team)-\(n)".utf8))
        return DeveloperCertificate(
            commonName: "Apple Development: Developer \(n) (\(team))", teamID: team, organization: "Team \(index)",
            issuerCommonName: "Bench WWDR CA", serial: hex(UInt64(index * 10 + n + 1), 16),
            notBefore: reference.addingTimeInterval(-400 * 86_400),
            notAfter: reference.addingTimeInterval(Double(30 + 60 * n + index) * 86_400),
            sha1: String(digest.prefix(40)), sha256: digest)
    }
}
let devicePool = (0..<20_000).map { hex(UInt64($0) &* 0x9E37_79B9, 40) }

do {
    let db = try Connection.openCatalogue(path: path)
    _ = try db.query("PRAGMA synchronous = OFF")
    let writer = CatalogWriter(db)
    let started = Date()
    var uuids: [String] = []
    uuids.reserveCapacity(profileCount)
    let chunk = 50_000
    var done = 0
    while done < profileCount {
        try db.transaction {
            for index in done..<min(done + chunk, profileCount) {
                let team = random.below(teams.count)
                let bundle = bundles[random.below(bundles.count)]
                let uuid = "\(hex(UInt64(index), 8))-0000-4000-8000-\(hex(random.next() & 0xFFFF_FFFF_FFFF, 12))"
                let created = reference.addingTimeInterval(-Double(random.below(700)) * 86_400)
                let expires = created.addingTimeInterval(365 * 86_400)
                let kindRoll = random.below(4)
                let devices = kindRoll < 2 ? (0..<random.below(20)).map { _ in devicePool[random.below(devicePool.count)] } : []
                let entitlements = PlistDictionary([
                    ("application-identifier", .string("\(teams[team]).\(bundle)")),
                    ("com.apple.developer.team-identifier", .string(teams[team])),
                    ("get-task-allow", .bool(kindRoll == 0)),
                    ("aps-environment", .string(kindRoll == 0 ? "development" : "production")),
                ])
                var profile = ProvisioningProfile(
                    uuid: uuid, name: "Bench \(bundle) \(kindRoll)", appIDName: bundle,
                    applicationIdentifierPrefixes: [teams[team]], teamIdentifiers: [teams[team]], teamName: "Team \(team)",
                    platforms: ["iOS"], creationDate: created, expirationDate: expires, devices: devices,
                    provisionsAllDevices: kindRoll == 3, xcodeManaged: kindRoll == 0, ppqCheck: false, timeToLive: 365,
                    version: 1, entitlements: entitlements,
                    certificates: Array(certificates[team].prefix(1 + random.below(3))), derEncodedProfile: nil,
                    unknownKeys: PlistDictionary(), rawPlist: Array("<plist/>".utf8), envelopeCertificateCount: 3)
                profile.sha256 = Digest.sha256Hex(Array(uuid.utf8))
                try writer.upsertProfile(profile, at: reference)
                try writer.recordLocation(path: "/bench/profiles/\(uuid).mobileprovision", profileUUID: uuid,
                                          containerKind: .standalone, containerPath: nil, size: 12_000,
                                          mtime: created, sha256: profile.sha256, at: reference)
                uuids.append(uuid)
            }
            try writer.flushDeviceLinks()
        }
        done = min(done + chunk, profileCount)
        FileHandle.standardError.write(Data("profiles: \(done)\n".utf8))
    }
    done = 0
    while done < buildCount {
        try db.transaction {
            for index in done..<min(done + chunk, buildCount) {
                let bundle = bundles[index % bundles.count]
                let version = "\(1 + index % 7).\(index % 13).\(index % 5)"
                let info = AppInfo(bundleID: bundle, rawShortVersion: version, rawBuild: "\(index / bundles.count + 1)",
                                   name: "App", displayName: nil, packageType: "APPL", executable: "App",
                                   platform: "iPhoneOS", minimumOSVersion: "16.0", format: .binary,
                                   plist: PlistDictionary())
                let kind: BuildArtifact.SourceKind = index % 10 == 0 ? .ipa : (index % 10 == 1 ? .xcarchive : .app)
                var artifact = BuildArtifact(sourceKind: kind, path: "/bench/builds/\(bundle)/\(index)/App.\(kind.rawValue)", info: info)
                artifact.archivedAt = kind == .xcarchive ? reference.addingTimeInterval(-Double(index % 700) * 86_400) : nil
                artifact.teamID = teams[index % teams.count]
                let build = try writer.upsertBuild(artifact, appPath: "", parentID: nil, size: 1000, mtime: reference,
                                                   at: reference)
                if !uuids.isEmpty {
                    // The model carries an embedded profile only as a decoded one; link by UUID instead.
                    try db.execute("UPDATE builds SET profile_uuid = ? WHERE id = ?",
                                   [.text(uuids[index % uuids.count]), .integer(build.id)])
                }
            }
        }
        done = min(done + chunk, buildCount)
        FileHandle.standardError.write(Data("builds: \(done)\n".utf8))
    }
    _ = try db.query("PRAGMA optimize")
    try db.execute("ANALYZE")
    // As `catalog ingest` leaves it: out of WAL mode, so the queries are timed on what users query.
    _ = try db.leaveWAL(waitingUpTo: 5)
    FileHandle.standardError.write(Data(String(format: "filled %@ in %.1fs\n", path, Date().timeIntervalSince(started)).utf8))
} catch {
    FileHandle.standardError.write(Data("catalog-bench-fill: \(error)\n".utf8))
    exit(1)
}
