import CatalogCore // deliberately not @testable: only what another package can call
import CatalogTestSupport
import Foundation
import Testing

/// The decoding library as a user of the `CatalogCore` product sees it: every entry point of the
/// README's example, on one fixture of each kind, checked against `Fixtures/expected.json`.
@Suite struct PublicAPITests {
    static func fixture(_ relative: String) -> URL {
        URL(fileURLWithPath: TestPaths.fixtures + "/" + relative)
    }

    static func date(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text), "\(text)")
    }

    /// `expected.json`'s `profiles` entries, keyed by path relative to the package root.
    static func expectedProfiles() throws -> [String: [String: Any]] {
        let expected = try TestPaths.expected(at: TestPaths.fixtures + "/expected.json")
        let profiles = try #require(expected["profiles"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: profiles.map { ($0["path"] as? String ?? "", $0) })
    }

    // MARK: Profiles

    @Test func everyFixtureProfileDecodesFromItsURLAsExpected() throws {
        let expected = try Self.expectedProfiles()
        let folder = TestPaths.fixtures + "/profiles"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names.count >= 20)
        for name in names {
            let entry = try #require(expected["Fixtures/profiles/" + name], "\(name) in expected.json")
            let profile = try ProvisioningProfile(contentsOf: Self.fixture("profiles/" + name))
            #expect(profile.uuid == entry["uuid"] as? String, "\(name)")
            #expect(profile.name == entry["name"] as? String, "\(name)")
            #expect(profile.teamID == entry["team_id"] as? String, "\(name)")
            #expect(profile.kind.rawValue == entry["kind"] as? String, "\(name)")
            #expect(profile.devices.count == entry["device_count"] as? Int, "\(name)")
            #expect(profile.sha256 == entry["sha256"] as? String, "\(name)")
            #expect(profile.expirationDate == (try Self.date(entry["expiration_date"] as? String ?? "")), "\(name)")
            #expect(profile.effectiveExpiryCause.rawValue == entry["expiry_cause"] as? String, "\(name)")
            let certificates = entry["certificates"] as? [[String: Any]] ?? []
            #expect(profile.certificates.map(\.sha1) == certificates.map { $0["sha1"] as? String ?? "" }, "\(name)")
        }
    }

    @Test func aProfileFromBytesEqualsTheSameProfileFromItsURL() throws {
        let url = Self.fixture("profiles/ios-adhoc.mobileprovision")
        let fromBytes = try ProvisioningProfile(bytes: Data(contentsOf: url))
        let fromURL = try ProvisioningProfile(contentsOf: url)
        #expect(fromBytes == fromURL)
        #expect(fromBytes.kind == .adHoc)
        #expect(fromBytes.bundleID == "com.example.app")
        #expect(fromBytes.apsEnvironment == "production")
        #expect(fromBytes.envelopeCertificateCount == 2)
        #expect(fromBytes.certificates.first?.type == .appleDistribution)
    }

    @Test func signaturesAreVerifiedAgainstTheTrustGiven() throws {
        let url = Self.fixture("profiles/ios-development.mobileprovision")
        // The fixtures are signed by a test CA: untrusted by Apple's roots, verified by the test CA's.
        #expect(try ProvisioningProfile(contentsOf: url).signature?.status == .untrusted)
        let testCA = try TrustAnchors(pem: String(contentsOf: Self.fixture("certs/ca.pem"), encoding: .utf8))
        #expect(try ProvisioningProfile(contentsOf: url, trust: testCA).signature?.status == .verified)
        #expect(try ProvisioningProfile(contentsOf: url, trust: nil).signature == nil)
        let bare = try ProvisioningProfile(contentsOf: Self.fixture("profiles/bare-plist.mobileprovision"))
        #expect(bare.signature?.status == .unsigned)
    }

    // MARK: Info.plist

    @Test func anInfoPlistDecodesFromBytesAndFromItsURL() throws {
        let url = Self.fixture("plists/app-xml.plist")
        let info = try AppInfo(contentsOf: url)
        #expect(info == (try AppInfo(bytes: Data(contentsOf: url))))
        #expect(info.bundleID == "com.example.app")
        #expect(info.formattedVersion == "1.2 (34)")
        #expect(info.platform == "iPhoneOS")
        #expect(info.minimumOSVersion == "16.0")
        #expect(info.format == .xml)
        #expect(info.plist["UIDeviceFamily"] == .array([.integer(1), .integer(2)]))
        #expect(try AppInfo(contentsOf: Self.fixture("plists/app-binary.plist")).format == .binary)
    }

    // MARK: Builds

    @Test func anAppBundleDecodesWithItsEmbeddedProfile() throws {
        let build = try BuildArtifact(contentsOf: Self.fixture("bundles/Example.app"))
        #expect(build.sourceKind == .app)
        #expect(build.info.bundleID == "com.example.app")
        #expect(build.info.formattedVersion == "1.2 (34)")
        #expect(build.profile?.uuid == "080B4AFF-C595-4955-AEED-8B8810E698FC")
        #expect(build.profileError == nil)
        #expect(build.embeddedProfileSHA256 == build.profile?.sha256)
    }

    @Test func anArchiveDecodesWithItsApplicationProperties() throws {
        let build = try BuildArtifact(contentsOf: Self.fixture("bundles/Example.xcarchive"))
        #expect(build.sourceKind == .xcarchive)
        #expect(build.appPath == "Products/Applications/Example.app")
        #expect(build.info.formattedVersion == "1.3 (40)")
        #expect(build.archivedAt == (try Self.date("2026-02-03T14:05:06Z")))
        #expect(build.scheme == "Example")
        #expect(build.signingIdentity == "Apple Distribution: Example Corp (TEAM123456)")
        #expect(build.teamID == "TEAM123456")
        #expect(build.profile?.uuid == "930A1813-B3BA-4B98-AE76-B3B24E907A89")
    }

    @Test func anIPADecodesFromTheZip() throws {
        let build = try BuildArtifact(contentsOf: Self.fixture("ipa/Example.ipa"))
        #expect(build.sourceKind == .ipa)
        #expect(build.appPath == "Payload/Example.app")
        #expect(build.info.bundleID == "com.example.app")
        #expect(build.info.formattedVersion == "2.0 (50)")
        #expect(build.profile?.uuid == "080B4AFF-C595-4955-AEED-8B8810E698FC")
    }

    @Test func anIPAInMemoryDecodesLikeTheFile() throws {
        let url = Self.fixture("ipa/Example.ipa")
        let fromBytes = try BuildArtifact(ipaBytes: Data(contentsOf: url), path: url.path)
        #expect(fromBytes == (try BuildArtifact(contentsOf: url)))
        #expect(fromBytes.profile?.sha256 == fromBytes.embeddedProfileSHA256)

        var truncated = try Array(Data(contentsOf: url))
        truncated.removeLast(30)
        let error = try #require(throws: DecodeError.self) { try BuildArtifact(ipaBytes: truncated, path: "cut.ipa") }
        #expect(error.kind == .malformedZip)
        #expect(error.path == "cut.ipa")
    }

    // MARK: Whatever the file is

    @Test func decodedFileTellsTheKindsApart() throws {
        guard case .profile(let profile) = try DecodedFile(contentsOf: Self.fixture("profiles/ios-appstore.mobileprovision")) else {
            Issue.record("ios-appstore.mobileprovision is not a profile"); return
        }
        #expect(profile.kind == .appStore)
        guard case .infoPlist(let info) = try DecodedFile(bytes: Data(contentsOf: Self.fixture("plists/app-binary.plist"))) else {
            Issue.record("app-binary.plist is not an Info.plist"); return
        }
        #expect(info.format == .binary)
        guard case .build(let build) = try DecodedFile(contentsOf: Self.fixture("ipa/Example.ipa")) else {
            Issue.record("Example.ipa is not a build"); return
        }
        #expect(build == (try BuildArtifact(contentsOf: Self.fixture("ipa/Example.ipa"))))
        #expect(try DecodedFile(contentsOf: Self.fixture("bundles/Example.xcarchive")).warnings == [])
    }

    // MARK: Errors

    @Test func errorsArePublicTypedAndNameTheFile() throws {
        let missing = Self.fixture("profiles/does-not-exist.mobileprovision")
        let error = try #require(throws: DecodeError.self) { try ProvisioningProfile(contentsOf: missing) }
        #expect(error.kind == .unreadable)
        #expect(error.path == missing.path)
        #expect(error.description.hasPrefix(missing.path + ": "))

        let garbage = try #require(throws: DecodeError.self) { try ProvisioningProfile(bytes: [0x30, 0x82, 0x01]) }
        #expect(garbage.kind == .malformedEnvelope)
        #expect(garbage.path == nil)
        #expect(throws: DecodeError(.unrecognized, "")) { try AppInfo(bytes: Array("hello".utf8)) }
        #expect(throws: DecodeError(.empty, "")) { try DecodedFile(bytes: []) }

        let plist = Self.fixture("plists/app-xml.plist")
        let notABuild = try #require(throws: DecodeError.self) { try BuildArtifact(contentsOf: plist) }
        #expect(notABuild.kind == .invalidBundle)
        #expect(notABuild.path == plist.path)
        let web = try #require(URL(string: "https://example.com/a.mobileprovision"))
        #expect(throws: DecodeError.self) { try ProvisioningProfile(contentsOf: web) }
    }

    // MARK: Codable leaves

    @Test func certificatesEncodeWithTheSchemaKeys() throws {
        let profile = try ProvisioningProfile(contentsOf: Self.fixture("profiles/ios-adhoc.mobileprovision"))
        let certificate = try #require(profile.certificates.first)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(certificate)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["common_name", "team_id", "organization", "issuer_common_name", "serial",
                                     "not_before", "not_after", "sha1", "sha256", "certificate_type"])
        #expect(object["certificate_type"] as? String == "Apple Distribution")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(DeveloperCertificate.self, from: data) == certificate)
    }

    // MARK: Mach-O binaries and code signatures

    @Test func binariesDecodeFromTheirURLAsExpected() throws {
        let expected = try TestPaths.expected(at: TestPaths.fixtures + "/expected.json")
        let binaries = try #require(expected["binaries"] as? [[String: Any]])
        let files = binaries.filter { ($0["path"] as? String)?.hasPrefix("Fixtures/codesign/macho/") == true }
        #expect(files.count >= 8)
        for entry in files {
            let path = try #require(entry["path"] as? String)
            let url = URL(fileURLWithPath: TestPaths.packageRoot + "/" + path)
            let binary = try MachOFile(contentsOf: url)
            #expect(binary == (try MachOFile(bytes: Data(contentsOf: url), path: path)), "\(path)")
            #expect(binary.layout.rawValue == entry["layout"] as? String, "\(path)")
            let slices = entry["slices"] as? [[String: Any]] ?? []
            #expect(binary.slices.map(\.architecture) == slices.map { $0["arch"] as? String ?? "" }, "\(path)")
            #expect(binary.slices.map(\.uuid) == slices.map { $0["uuid"] as? String }, "\(path)")
            let cdhashes = slices.map { ($0["code_signature"] as? [String: Any])?["cdhash"] as? String }
            #expect(binary.slices.map { $0.codeSignature?.cdhash } == cdhashes, "\(path)")
        }
    }

    @Test func aCodeSignatureAsCodesignDescribesIt() throws {
        let binary = try MachOFile(contentsOf: Self.fixture("codesign/macho/thin-arm64"))
        let slice = try #require(binary.slices.first)
        #expect(slice.architecture == "arm64" && slice.platform == .iOS && slice.minimumOS == "16.0" && slice.is64Bit)
        #expect(slice.fileType == MachOSlice.executeFileType)
        let signature = try #require(slice.codeSignature)
        #expect(signature.identifier == "com.example.thin")
        #expect(signature.teamID == "TEAM123456")
        #expect(signature.codeDirectories.map(\.hashType) == [CodeDirectory.HashType.sha1, .sha256])
        #expect(signature.cdhash == signature.codeDirectories.last?.cdhash)
        #expect(signature.signingCertificate?.commonName == "Apple Development: Jane Doe (ABCDE12345)")
        #expect(signature.signingCertificate?.type == .appleDevelopment)
        #expect(signature.entitlements?["get-task-allow"] == .bool(true))
        #expect(!signature.isAdHoc)
        let unsigned = try MachOFile(contentsOf: Self.fixture("codesign/macho/unsigned-arm64"))
        #expect(unsigned.slices.first?.isSigned == false)
        #expect(unsigned.slices.first?.codeSignature == nil)
        let broken = try #require(throws: DecodeError.self) {
            try MachOFile(contentsOf: Self.fixture("codesign/macho/malformed/load-commands-past-end"))
        }
        #expect(broken.kind == .malformedMachO)
    }

    @Test func aBuildsExecutablesDSYMsAndSigningProblems() throws {
        let archive = try BuildArtifact(contentsOf: Self.fixture("codesign/Signed.xcarchive"), trust: nil)
        #expect(archive.executables.first?.role == .main)
        #expect(archive.executables.first?.path == "Products/Applications/Signed.app/Signed")
        #expect(Set(archive.executables.map(\.role)) == [.main, .framework, .appExtension, .watchApp, .appClip])
        #expect(archive.dsyms.count == 2)
        let uuids = Set(archive.executables.compactMap { $0.binary?.slices.first?.uuid })
        #expect(archive.dsyms.allSatisfy { uuids.contains($0.binary?.slices.first?.uuid ?? "-") })

        let asOf = try Self.date("2026-09-01T00:00:00Z")
        #expect(archive.signingProblems(asOf: asOf).isEmpty)
        let debuggable = try BuildArtifact(contentsOf: Self.fixture("codesign/Debuggable.app"), trust: nil)
        let problems = debuggable.signingProblems(asOf: asOf)
        #expect(problems.map(\.code) == [.getTaskAllowMismatch])
        #expect(problems.first?.executable == "Debuggable")
        // The checks run again from the subjects alone, at another date.
        let subject = try #require(debuggable.signingSubjects.first)
        let later = try Self.date("2027-01-01T00:00:00Z")
        #expect(SigningCheck.problems(subject, asOf: later).map(\.code) == [.profileExpired, .getTaskAllowMismatch])
        #expect(SigningProblem.Code.allCases.count == 22)
    }
}
