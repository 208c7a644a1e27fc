import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

/// Each `Fixtures/codesign/` build shows exactly the problem it was made for, at a date when every
/// profile and certificate it uses is otherwise valid; the dated ones come and go with the date.
@Suite struct SigningProblemTests {
    static let codesign = TestPaths.fixtures + "/codesign/"
    /// Every fixture profile used by codesign/ is valid then except `wildcard` (expired 2026-07-15),
    /// and every certificate except `old_b` (expired 2026-05-15).
    static let asOf = ISO8601DateFormatter().date(from: "2026-09-01T00:00:00Z")!

    static func build(_ name: String) throws -> BuildArtifact {
        try BuildArtifact(contentsOf: URL(fileURLWithPath: codesign + name), trust: nil)
    }

    static func codes(_ name: String, asOf: Date = asOf) throws -> [String] {
        try build(name).signingProblems(asOf: asOf).map(\.code.rawValue)
    }

    @Test(arguments: [
        ("Signed.app", [String]()), ("Signed.ipa", []), ("Signed.xcarchive", []), ("SignedMac.app", []),
        ("Unsigned.app", ["unsigned"]), ("AdHoc.app", ["ad-hoc"]), ("NoProfile.app", ["no-profile"]),
        ("WrongCertificate.app", ["certificate-not-in-profile"]), ("OtherTeam.app", ["team-mismatch"]),
        ("WrongBundleID.app", ["bundle-id-not-covered"]),
        ("ExtraEntitlements.app", ["entitlement-not-allowed", "entitlement-not-allowed"]),
        ("ExpiredProfile.app", ["profile-expired"]), ("ExpiredCertificate.app", ["certificate-expired"]),
        ("Debuggable.app", ["get-task-allow-mismatch"]),
    ])
    func eachBuildShowsItsProblem(name: String, codes: [String]) throws {
        let problems = try Self.build(name).signingProblems(asOf: Self.asOf)
        #expect(problems.map(\.code.rawValue) == codes, "\(name): \(problems.map(\.message))")
        for problem in problems {
            #expect(problem.executable == name.replacingOccurrences(of: ".app", with: ""), "named by the main executable")
            #expect(!problem.message.isEmpty)
        }
    }

    @Test func theDatedProblemsFollowTheDate() throws {
        let before = try #require(ISO8601DateFormatter().date(from: "2026-06-01T00:00:00Z"))
        #expect(try Self.codes("ExpiredProfile.app", asOf: before).isEmpty, "wildcard expires 2026-07-15")
        #expect(try Self.codes("ExpiredCertificate.app", asOf: before) == ["certificate-expired"], "old_b expired 2026-05-15")
        let early = try #require(ISO8601DateFormatter().date(from: "2026-05-01T00:00:00Z"))
        #expect(try Self.codes("ExpiredCertificate.app", asOf: early).isEmpty)
        // ios-adhoc and ios-widget-adhoc expire 2026-12-01: the app and its widget both show it.
        let after = try #require(ISO8601DateFormatter().date(from: "2026-12-02T00:00:00Z"))
        let problems = try Self.build("Signed.app").signingProblems(asOf: after)
        #expect(problems.map(\.code) == [.profileExpired, .profileExpired])
        #expect(problems.map(\.executable) == ["Signed", "PlugIns/Widget.appex/Widget"])
        // Each holds from its date: the profile's expiry, the certificate's notAfter; others have none.
        let expiry = try #require(ISO8601DateFormatter().date(from: "2026-12-01T10:00:00Z"))
        #expect(problems.map(\.date) == [expiry, expiry])
        let certificate = try Self.build("ExpiredCertificate.app").signingProblems(asOf: .distantFuture)
        #expect(certificate.first { $0.code == .certificateExpired }?.date == ISO8601DateFormatter().date(from: "2026-05-15T12:00:00Z"))
        #expect(try Self.build("Debuggable.app").signingProblems(asOf: Self.asOf).allSatisfy { $0.date == nil })
        // dev_jane's certificate (2027-12-01) outlives macos-development (2027-01-15).
        let later = try #require(ISO8601DateFormatter().date(from: "2027-06-01T00:00:00Z"))
        #expect(try Self.codes("SignedMac.app", asOf: later) == ["profile-expired"])
    }

    @Test func messagesNameWhatIsWrong() throws {
        let extra = try Self.build("ExtraEntitlements.app").signingProblems(asOf: Self.asOf).map(\.message)
        #expect(extra.count == 2)
        #expect(extra[0].contains("aps-environment") && extra[0].contains("development") && extra[0].contains("production"))
        #expect(extra[1].contains("com.apple.developer.icloud-services") && extra[1].contains("does not grant"))
        let team = try #require(try Self.build("OtherTeam.app").signingProblems(asOf: Self.asOf).first)
        #expect(team.message.contains("TEAM123456") && team.message.contains("ENTRP12345"))
        let certificate = try #require(try Self.build("WrongCertificate.app").signingProblems(asOf: Self.asOf).first)
        #expect(certificate.message.contains("Apple Development: Jane Doe (ABCDE12345)"))
        let bundle = try #require(try Self.build("WrongBundleID.app").signingProblems(asOf: Self.asOf).first)
        #expect(bundle.message.contains("com.example.other") && bundle.message.contains("TEAM123456.com.example.app"))
    }

    /// The nested bundles with a profile are judged too, named by their own executables.
    @Test func nestedBundlesWithAProfileAreSubjects() throws {
        let build = try Self.build("Signed.ipa")
        #expect(build.signingSubjects.map(\.executable) == ["Payload/Signed.app/Signed", "Payload/Signed.app/PlugIns/Widget.appex/Widget"])
        #expect(build.signingSubjects.map(\.role) == [.main, .appExtension])
        #expect(build.signingSubjects.allSatisfy { $0.hasEmbeddedProfile && $0.profile != nil })
        #expect(build.signingSubjects[1].profile?.uuid == "4C8FEABD-CB00-430B-A481-B35AEC317985")
    }

    // MARK: Rules

    @Test func wildcardsAsAppleMatchesThem() {
        #expect(SigningCheck.covers("com.example.app", "com.example.app"))
        #expect(!SigningCheck.covers("com.example.app", "com.example.app.widget"))
        #expect(SigningCheck.covers("com.example.*", "com.example.app.widget"))
        #expect(!SigningCheck.covers("com.example.*", "com.example"))
        #expect(!SigningCheck.covers("com.example.*", "com.examples.app"))
        #expect(SigningCheck.covers("*", "org.other.app"))
        #expect(SigningCheck.covers("maccatalyst.com.example.app", "com.example.app"))
        #expect(!SigningCheck.covers("com.example.app", "COM.EXAMPLE.APP"), "bundle ids compare exactly")
    }

    @Test func entitlementValues() {
        let team: PlistValue = .array([.string("TEAM123456.*"), .string("com.apple.token")])
        #expect(SigningCheck.allows(team, .array([.string("TEAM123456.com.example.app"), .string("com.apple.token")])))
        #expect(!SigningCheck.allows(team, .array([.string("OTHER.com.example.app")])))
        #expect(SigningCheck.allows(team, .array([])), "an empty list claims nothing")
        #expect(SigningCheck.allows(.string("*"), .array([.string("applinks:example.com")])))
        #expect(SigningCheck.allows(.string("production"), .string("production")))
        #expect(!SigningCheck.allows(.string("production"), .string("development")))
        #expect(SigningCheck.allows(.array([.string("Development"), .string("Production")]), .string("Production")))
        #expect(SigningCheck.allows(.bool(true), .bool(true)))
        #expect(SigningCheck.allows(.string("x"), .bool(false)), "a signed false claims nothing")
        #expect(!SigningCheck.allows(.bool(false), .bool(true)))
        #expect(!SigningCheck.allows(.string("TEAM123456.*"), .integer(1)))
        #expect(SigningCheck.allows(.dictionary(PlistDictionary([("a", .string("x.*"))])),
                                    .dictionary(PlistDictionary([("a", .string("x.y"))]))))
        #expect(!SigningCheck.allows(.dictionary(PlistDictionary([("a", .string("x"))])),
                                     .dictionary(PlistDictionary([("b", .string("x"))]))))
    }

    /// Subjects made by hand: the rules that no fixture build shows on its own.
    @Test func macOSAndSimulatorRules() throws {
        let mac = try Self.build("SignedMac.app")
        var subject = try #require(mac.signingSubjects.first)
        #expect(subject.isMacOS)
        // Sandbox entitlements alone need no profile; a restricted one does.
        guard case .signed(var signature) = subject.binary else { Issue.record("not signed"); return }
        subject.hasEmbeddedProfile = false
        subject.profile = nil
        #expect(SigningCheck.problems(subject, asOf: Self.asOf).map(\.code) == [.noProfile])
        signature.entitlements = PlistDictionary([("com.apple.security.app-sandbox", .bool(true))])
        subject.binary = .signed(signature)
        #expect(SigningCheck.problems(subject, asOf: Self.asOf).isEmpty)
        // A macOS profile that does not state get-task-allow is not compared with a debug signature.
        subject = try #require(mac.signingSubjects.first)
        signature.entitlements?["com.apple.security.get-task-allow"] = .bool(true)
        subject.binary = .signed(signature)
        #expect(SigningCheck.problems(subject, asOf: Self.asOf).isEmpty)
        // A simulator build is never judged.
        subject.isSimulator = true
        subject.binary = .unsigned(["x86_64"])
        #expect(SigningCheck.problems(subject, asOf: Self.asOf).isEmpty)
    }

    /// Issue 51 §1, §7: what could not be read is a problem, never a pass.
    @Test func aMissingOrUnreadableExecutableIsSignatureUnreadable() throws {
        // bundles/Example.app's executable is seeded noise after a Mach-O magic: the profile checks
        // still run, and each unreadable executable is a problem naming why.
        let example = try BuildArtifact(contentsOf: URL(fileURLWithPath: TestPaths.fixtures + "/bundles/Example.app"), trust: nil)
        guard case .unreadable(let error) = example.signingSubjects.first?.binary else {
            Issue.record("expected an unreadable binary")
            return
        }
        #expect(error.kind == .malformedMachO)
        let problems = example.signingProblems(asOf: Self.asOf)
        #expect(problems.map(\.code) == [.signatureUnreadable, .signatureUnreadable])
        #expect(problems.map(\.executable) == ["Example", "PlugIns/Widget.appex/Widget"])
        #expect(problems.first?.message.contains("sizeofcmds") == true, "\(problems)")
        #expect(example.executables.map(\.path) == ["Example", "PlugIns/Widget.appex/Widget"])
        #expect(example.executables.allSatisfy { $0.binary == nil && $0.error?.path?.hasSuffix($0.path) == true })
    }
}
