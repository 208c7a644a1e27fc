import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

/// Checks decoding against an `expected.json` (the real corpus's, or the generated fixtures'):
/// both are computed independently of this code, with openssl and Python's plistlib.
struct Conformance {
    /// Folder the expectation's `path`s are relative to.
    var base: String
    var expected: [String: Any]
    /// Profile keys that describe the fixture rather than decoder output.
    var ignoredProfileKeys: Set<String> = []

    init(expectedPath: String, base: String, ignoredProfileKeys: Set<String> = []) throws {
        self.base = base
        self.expected = try TestPaths.expected(at: expectedPath)
        self.ignoredProfileKeys = ignoredProfileKeys
    }

    func list(_ key: String) -> [[String: Any]] { expected[key] as? [[String: Any]] ?? [] }

    func checkProfiles() throws {
        let files = list("files")
        for var profile in list("profiles") {
            let uuid = profile["uuid"] as? String ?? ""
            var paths = files.filter { ($0["uuid"] as? String)?.uppercased() == uuid }.compactMap { $0["path"] as? String }
            if let own = profile["path"] as? String { paths = [own] }
            // A profile only found embedded in a build (an .ipa) is checked through that build.
            let builds = list("builds").filter { ($0["profile_uuid"] as? String)?.uppercased() == uuid }
                .compactMap { $0["path"] as? String }
            #expect(!paths.isEmpty || !builds.isEmpty, "no file for \(uuid)")
            for key in ignoredProfileKeys { profile.removeValue(forKey: key) }
            for path in paths + (paths.isEmpty ? builds : []) {
                let decoded = try FileDecoder.decode(path: base + "/" + path)
                var found: ProvisioningProfile?
                switch decoded {
                case .profile(let model): found = model
                case .build(let artifact): found = artifact.profile
                case .infoPlist: found = nil
                }
                guard let model = found else {
                    Issue.record("\(path) did not yield profile \(uuid)")
                    continue
                }
                let problems = ExpectedJSONComparison.mismatches(expected: profile, actual: model.json)
                #expect(problems.isEmpty, "\(path): \(problems.joined(separator: "; "))")
            }
        }
    }

    func checkFiles() throws {
        for file in list("files") {
            let path = file["path"] as? String ?? ""
            let full = base + "/" + path
            switch file["type"] as? String {
            case "profile":
                guard case .profile(let model) = try FileDecoder.decode(path: full) else {
                    Issue.record("\(path): not a profile")
                    continue
                }
                #expect(model.uuid == (file["uuid"] as? String)?.uppercased(), "\(path)")
            case "info-plist":
                guard case .infoPlist(let info) = try FileDecoder.decode(path: full) else {
                    Issue.record("\(path): not an Info.plist")
                    continue
                }
                #expect(info.format.rawValue == file["format"] as? String, "\(path)")
                #expect(info.bundleID == file["bundle_id"] as? String, "\(path)")
                #expect(info.rawShortVersion == file["short_version"] as? String, "\(path)")
                #expect(info.rawBuild == file["build"] as? String, "\(path)")
                #expect(info.packageType == file["package_type"] as? String, "\(path)")
                #expect(info.unresolved == file["unresolved"] as? Bool, "\(path)")
            case "invalid":
                #expect(throws: DecodeError.self, "\(path)") { try FileDecoder.decode(path: full) }
            default:
                Issue.record("\(path): unknown expected type")
            }
        }
    }

    /// Path → "arch uuid, … cdhash" of decoded binaries, comparable with expected.json's.
    static func binaries(_ decoded: [(String, MachOFile?)]) -> [String: String] {
        Dictionary(decoded.map { path, binary in
            let slices = binary?.slices ?? []
            let cdhash = slices.lazy.compactMap { $0.codeSignature?.cdhash }.first ?? "-"
            return (path, slices.map { "\($0.architecture) \($0.uuid ?? "-")" }.joined(separator: ", ") + " " + cdhash)
        }, uniquingKeysWith: { first, _ in first })
    }

    static func binaries(_ expected: [[String: Any]]) -> [String: String] {
        Dictionary(expected.map { entry in
            let slices = (entry["architectures"] as? [[String: Any]] ?? []).map {
                "\($0["arch"] as? String ?? "?") \($0["uuid"] as? String ?? "-")"
            }
            return (entry["path"] as? String ?? "", slices.joined(separator: ", ") + " " + (entry["cdhash"] as? String ?? "-"))
        }, uniquingKeysWith: { first, _ in first })
    }

    func checkBuilds() throws {
        for build in list("builds") {
            let path = build["path"] as? String ?? ""
            guard case .build(let artifact) = try FileDecoder.decode(path: base + "/" + path) else {
                Issue.record("\(path): not a build")
                continue
            }
            #expect(artifact.sourceKind.rawValue == build["source_kind"] as? String, "\(path)")
            #expect(artifact.info.bundleID == build["bundle_id"] as? String, "\(path)")
            #expect(artifact.info.rawShortVersion == build["short_version"] as? String, "\(path)")
            #expect(artifact.info.rawBuild == build["build"] as? String, "\(path)")
            if let uuid = build["profile_uuid"] as? String {
                #expect(artifact.profile?.uuid == uuid.uppercased(), "\(path)")
            }
            if build.keys.contains("archived_at") {
                #expect(artifact.archivedAt.map(ISO8601.format) == build["archived_at"] as? String, "\(path)")
            }
            if build.keys.contains("team_id") {
                #expect(artifact.teamID == build["team_id"] as? String, "\(path)")
            }
            if build.keys.contains("signing_identity") {
                #expect(artifact.signingIdentity == build["signing_identity"] as? String, "\(path)")
            }
            if let scheme = build["scheme"] as? String {
                #expect(artifact.scheme == scheme, "\(path)")
            }
            // Fixture builds with real binaries list every Mach-O inside them (found by magic number).
            if let executables = build["executables"] as? [[String: Any]] {
                #expect(Self.binaries(artifact.executables.map { ($0.path, $0.binary) }) == Self.binaries(executables),
                        "\(path): executables")
            }
            if let dsyms = build["dsyms"] as? [[String: Any]] {
                #expect(Self.binaries(artifact.dsyms.map { ($0.path, $0.binary) }) == Self.binaries(dsyms), "\(path): dsyms")
            }
            if let appPath = build["app_path"] as? String {
                // Written relative to the container or as a full path; the model keeps it relative.
                #expect(artifact.appPath == appPath || artifact.appPath.map { path + "/" + $0 } == appPath, "\(path)")
            }
        }
    }
}
