import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

/// Issue 51 §8: every build under `Fixtures/integrity/` (one good signed build as `.app`, `.ipa` and
/// `.xcarchive`, a macOS pair, and one variant per broken part) gives exactly the problems
/// `integrity/expected.json` lists, with the fixtures' CA trusted through the library; without it,
/// every signed executable is also `certificate-not-apple`.
@Suite struct IntegrityFixtureTests {
    static let folder = TestPaths.fixtures + "/integrity"

    static func expected() throws -> (asOf: Date, fixtures: [String: [[String: Any]]]) {
        let json = try TestPaths.expected(at: folder + "/expected.json")
        let asOf = try #require(ISO8601DateFormatter().date(from: json["as_of"] as? String ?? ""))
        return (asOf, json["fixtures"] as? [String: [[String: Any]]] ?? [:])
    }

    static var testRoot: TrustAnchors {
        get throws { try TrustAnchors(pem: String(contentsOfFile: TestPaths.fixtures + "/certs/ca.pem", encoding: .utf8)) }
    }

    static let names: [String] = (try? expected().fixtures.keys.sorted()) ?? []

    @Test func theFixturesAreAllListed() throws {
        let onDisk = FileBytes.children(of: Self.folder).filter { $0 != "expected.json" }
        #expect(Set(onDisk) == Set(Self.names))
        #expect(Self.names.count >= 18)
    }

    @Test(arguments: names) func eachFixtureGivesExactlyItsProblems(name: String) throws {
        let (asOf, fixtures) = try Self.expected()
        let want = (fixtures[name] ?? []).map { "\($0["code"] as? String ?? "?") \($0["executable"] as? String ?? "?")" }
        let build = try BuildArtifact(contentsOf: URL(fileURLWithPath: Self.folder + "/" + name), trust: try Self.testRoot)
        let problems = build.signingProblems(asOf: asOf)
        let got = problems.map { "\($0.code.rawValue) \($0.executable)" }
        #expect(got.sorted() == want.sorted(), "\(problems.map(\.message))")
        for entry in fixtures[name] ?? [] {
            let code = entry["code"] as? String ?? ""
            let message = problems.first { $0.code.rawValue == code }?.message ?? ""
            if let page = entry["page"] as? Int { #expect(message.hasPrefix("page \(page) "), "\(message)") }
            if let path = entry["path"] as? String { #expect(message.contains(path), "\(message)") }
        }
    }

    /// Against Apple's roots (what the CLI trusts), the fixtures' signer is nobody's.
    @Test func withoutTheTestRootEverySignerIsNotApples() throws {
        let build = try BuildArtifact(contentsOf: URL(fileURLWithPath: Self.folder + "/Good.ipa"), trust: .apple)
        let codes = build.integrityProblems.map(\.code)
        #expect(codes == [.certificateNotApple, .certificateNotApple, .certificateNotApple], "\(build.integrityProblems)")
    }

    /// The same good build read three ways gives the same verdicts, the `.ipa` read from the zip.
    @Test func theGoodBuildReadsTheSameInEachContainer() throws {
        let trust = try Self.testRoot
        let (asOf, _) = try Self.expected()
        var verdicts: [[String]] = []
        for container in ["Good.app", "Good.ipa", "Good.xcarchive"] {
            let build = try BuildArtifact(contentsOf: URL(fileURLWithPath: Self.folder + "/" + container), trust: trust)
            #expect(build.executables.count == 3, "\(container)")
            verdicts.append(build.signingProblems(asOf: asOf).map(\.code.rawValue))
        }
        #expect(verdicts == [[], [], []])
    }
}
