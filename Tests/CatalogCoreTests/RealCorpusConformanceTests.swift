import Foundation
import Testing
@testable import CatalogCore

/// Decodes every file of `../shared/real-corpus/tree` and compares with its `expected.json`
/// (computed independently with openssl and plistlib). Skipped when the corpus is absent.
@Suite(.enabled(if: TestPaths.realCorpus != nil)) struct RealCorpusConformanceTests {
    let corpus = TestPaths.realCorpus ?? ""

    @Test func everyProfileMatchesExpected() throws {
        let expected = try TestPaths.expected(at: corpus + "/expected.json")
        let profiles = expected["profiles"] as? [[String: Any]] ?? []
        let files = expected["files"] as? [[String: Any]] ?? []
        #expect(profiles.count >= 30)
        for profile in profiles {
            let uuid = profile["uuid"] as? String ?? ""
            let paths = files.filter { ($0["uuid"] as? String)?.uppercased() == uuid }.compactMap { $0["path"] as? String }
            #expect(!paths.isEmpty, "no file for \(uuid)")
            for path in paths {
                let decoded = try FileDecoder.decode(path: corpus + "/" + path)
                guard case .profile(let model) = decoded else {
                    Issue.record("\(path) did not decode as a profile")
                    continue
                }
                let problems = ExpectedJSONComparison.mismatches(expected: profile, actual: model.json)
                #expect(problems.isEmpty, "\(path): \(problems.joined(separator: "; "))")
            }
        }
    }

    @Test func everyFileIsRecognisedAsExpected() throws {
        let expected = try TestPaths.expected(at: corpus + "/expected.json")
        for file in expected["files"] as? [[String: Any]] ?? [] {
            let path = file["path"] as? String ?? ""
            let full = corpus + "/" + path
            switch file["type"] as? String {
            case "profile":
                let decoded = try FileDecoder.decode(path: full)
                guard case .profile(let model) = decoded else { Issue.record("\(path): not a profile"); continue }
                #expect(model.uuid == (file["uuid"] as? String)?.uppercased())
            case "info-plist":
                let decoded = try FileDecoder.decode(path: full)
                guard case .infoPlist(let info) = decoded else { Issue.record("\(path): not an Info.plist"); continue }
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

    @Test func everyBuildMatchesExpected() throws {
        let expected = try TestPaths.expected(at: corpus + "/expected.json")
        for build in expected["builds"] as? [[String: Any]] ?? [] {
            let path = build["path"] as? String ?? ""
            let decoded = try FileDecoder.decode(path: corpus + "/" + path)
            guard case .build(let artifact) = decoded else { Issue.record("\(path): not a build"); continue }
            #expect(artifact.sourceKind.rawValue == build["source_kind"] as? String, "\(path)")
            #expect(artifact.info.bundleID == build["bundle_id"] as? String, "\(path)")
            #expect(artifact.info.rawShortVersion == build["short_version"] as? String, "\(path)")
            #expect(artifact.info.rawBuild == build["build"] as? String, "\(path)")
            if let uuid = build["profile_uuid"] as? String {
                #expect(artifact.profile?.uuid == uuid.uppercased(), "\(path)")
            }
            if let archived = build["archived_at"] as? String {
                #expect(artifact.archivedAt.map(ISO8601.format) == archived, "\(path)")
            }
            if let team = build["team_id"] as? String {
                #expect(artifact.teamID == team, "\(path)")
            }
        }
    }
}
