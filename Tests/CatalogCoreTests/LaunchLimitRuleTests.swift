import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

/// ``LaunchLimit``: when a build stops launching, by its profiles' kind (docs/trust.md, "When a build
/// stops launching"), judged on real fixture bundles whose subjects are given other fixture profiles
/// where no fixture build embeds the case.
@Suite struct LaunchLimitRuleTests {
    static let fixtures = TestPaths.fixtures + "/"

    static func build(_ path: String) throws -> BuildArtifact {
        try BuildArtifact(contentsOf: URL(fileURLWithPath: fixtures + path), trust: nil)
    }

    static func profile(_ name: String) throws -> ProvisioningProfile {
        try ProvisioningProfile(contentsOf: URL(fileURLWithPath: fixtures + "profiles/" + name), trust: nil)
    }

    static func date(_ text: String) -> Date { ISO8601.parse(text)! }

    /// `ExpiredCertificate.app` is signed by `old_b` (notAfter 2026-05-15T12:00:00Z).
    static let oldB = date("2026-05-15T12:00:00Z")

    @Test func aDevelopmentBuildStopsWithItsSigningCertificateNotTheProfilesLatest() throws {
        let artifact = try Self.build("codesign/ExpiredCertificate.app")
        let limit = try #require(artifact.launchLimit)
        #expect(limit.date == Self.oldB && limit.cause == .certificate)
        #expect(limit.executable == "ExpiredCertificate" && limit.bundleID == artifact.info.bundleID)
        #expect(limit.reason.contains("Apple Development: John Roe (FGHIJ67890)"), "\(limit.reason)")

        // Under a profile whose certificates all outlive it (ios-development, until 2027-01-15), the
        // signing certificate still decides: the profile's effective expiry would say 2027-01-15.
        var subjects = artifact.signingSubjects
        let development = try Self.profile("ios-development.mobileprovision")
        #expect(development.effectiveExpirationDate == development.expirationDate && development.expirationDate > Self.oldB)
        subjects[0].profile = development
        let other = try #require(LaunchLimit.soonest(subjects))
        #expect(other.date == Self.oldB && other.cause == .certificate)
    }

    @Test func aProfileThatExpiresBeforeTheCertificateDecides() throws {
        let limit = try #require(try Self.build("codesign/Signed.app").launchLimit)
        #expect(limit.date == Self.date("2026-12-01T10:00:00Z") && limit.cause == .profile)
        // The app and its widget expire together: the app, listed first, names the tie.
        #expect(limit.executable == "Signed")
        #expect(limit.reason.contains("'Example App AdHoc'"))
    }

    @Test(arguments: ["ad-hoc", "enterprise"])
    func adHocAndEnterpriseFollowTheDevelopmentRule(kind: String) throws {
        var subjects = try Self.build("codesign/ExpiredCertificate.app").signingSubjects
        subjects[0].profile = try Self.profile(kind == "ad-hoc" ? "ios-adhoc.mobileprovision" : "ios-enterprise.mobileprovision")
        #expect(subjects[0].profile?.kind.rawValue == kind)
        let limit = try #require(LaunchLimit.of(subjects[0]))
        #expect(limit.date == Self.oldB && limit.cause == .certificate)
    }

    @Test func anAppStoreBuildHasNoLimit() throws {
        let limit = try #require(try Self.build("bundles/Example.xcarchive").launchLimit)
        #expect(limit.date == nil && limit.cause == .appStore)
        #expect(limit.executable == "Products/Applications/Example.app/Example")
        #expect(limit.reason.contains("App Store re-signs"))
        // Signed by a certificate that expired long ago, it still has none.
        var subjects = try Self.build("codesign/ExpiredCertificate.app").signingSubjects
        subjects[0].profile = try Self.profile("ios-appstore.mobileprovision")
        #expect(LaunchLimit.of(subjects[0])?.date == nil)
    }

    @Test func aDeveloperIDBuildStopsOnlyWithItsProfile() throws {
        // A Developer ID profile over code whose signing certificate expired first: the certificate
        // does not stop a Developer ID app, the profile's expiry does.
        var subjects = try Self.build("codesign/ExpiredCertificate.app").signingSubjects
        let developerID = try Self.profile("macos-developer-id.provisionprofile")
        #expect(developerID.kind == .developerID && developerID.expirationDate > Self.oldB)
        subjects[0].profile = developerID
        let limit = try #require(LaunchLimit.of(subjects[0]))
        #expect(limit.date == developerID.expirationDate && limit.cause == .profile)
        #expect(limit.reason.contains("Developer ID certificate does not stop"))
    }

    @Test func aNestedBundleThatStopsSoonerWins() throws {
        var subjects = try Self.build("codesign/Signed.app").signingSubjects
        let widget = try #require(subjects.firstIndex { $0.executable == "PlugIns/Widget.appex/Widget" })
        let wildcard = try Self.profile("wildcard.mobileprovision")
        subjects[widget].profile = wildcard
        let limit = try #require(LaunchLimit.soonest(subjects))
        #expect(limit.date == wildcard.expirationDate && limit.executable == "PlugIns/Widget.appex/Widget")
        #expect(limit.bundleID == subjects[widget].bundleID)
        // An App Store bundle beside a dated one does not hide the date.
        subjects[0].profile = try Self.profile("ios-appstore.mobileprovision")
        #expect(LaunchLimit.soonest(subjects)?.date == wildcard.expirationDate)
    }

    @Test func nothingIsKnownWithoutAProfile() throws {
        #expect(try Self.build("codesign/NoProfile.app").launchLimit == nil)
        var subjects = try Self.build("codesign/Signed.app").signingSubjects
        for index in subjects.indices { subjects[index].profile = nil }
        #expect(LaunchLimit.soonest(subjects) == nil)
    }
}
