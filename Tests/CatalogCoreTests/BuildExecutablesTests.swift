import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

/// Which binaries a build has, what each is to the app, and how the three containers name them.
@Suite struct BuildExecutablesTests {
    static let codesign = TestPaths.fixtures + "/codesign/"

    static func build(_ name: String) throws -> BuildArtifact {
        try BuildArtifact(contentsOf: URL(fileURLWithPath: codesign + name), trust: nil)
    }

    static let iOSLayout: [(BuildExecutable.Role, String, String?)] = [
        (.main, "Signed", "com.example.app"),
        (.framework, "Frameworks/ExampleKit.framework/ExampleKit", "com.example.ExampleKit"),
        (.framework, "Frameworks/libExampleSupport.dylib", nil),
        (.appExtension, "PlugIns/Widget.appex/Widget", "com.example.app.widget"),
        (.watchApp, "Watch/SignedWatch.app/SignedWatch", "com.example.app.watchkitapp"),
        (.appClip, "AppClips/SignedClip.app/SignedClip", "com.example.app.Clip"),
    ]

    @Test(arguments: [("Signed.app", ""), ("Signed.ipa", "Payload/Signed.app/"),
                      ("Signed.xcarchive", "Products/Applications/Signed.app/")])
    func rolesPathsAndBundleIDs(name: String, prefix: String) throws {
        let build = try Self.build(name)
        #expect(build.executables.map(\.role) == Self.iOSLayout.map(\.0), "\(name)")
        #expect(build.executables.map(\.path) == Self.iOSLayout.map { prefix + $0.1 }, "\(name)")
        #expect(build.executables.map(\.bundleID) == Self.iOSLayout.map(\.2), "\(name)")
        #expect(build.executables.allSatisfy { $0.error == nil && $0.codeSignature?.signingCertificate != nil }, "\(name)")
        let watch = try #require(build.executables.first { $0.role == .watchApp }?.binary)
        #expect(watch.layout == .fat)
        #expect(watch.slices.map(\.architecture) == ["armv7k", "arm64_32"])
        #expect(watch.slices.allSatisfy { $0.platform == .watchOS })
    }

    /// The same app in three containers is the same binaries: same UUIDs and cdhashes.
    @Test func theContainersAgree() throws {
        let facts = try ["Signed.app", "Signed.ipa", "Signed.xcarchive"].map { name in
            try Self.build(name).executables.map { "\($0.binary?.slices.map { $0.uuid ?? "" } ?? []) \($0.codeSignature?.cdhash ?? "")" }
        }
        #expect(facts[0] == facts[1])
        #expect(facts[0] == facts[2])
    }

    @Test func anArchiveListsItsDSYMsWithTheBinariesUUIDs() throws {
        let archive = try Self.build("Signed.xcarchive")
        #expect(archive.dsyms.map(\.path) == ["dSYMs/ExampleKit.framework.dSYM/Contents/Resources/DWARF/ExampleKit",
                                              "dSYMs/Signed.app.dSYM/Contents/Resources/DWARF/Signed"])
        let uuids = Dictionary(uniqueKeysWithValues: archive.executables.map { ($0.path.split(separator: "/").last.map(String.init) ?? "",
                                                                                 $0.binary?.slices.first?.uuid) })
        for dsym in archive.dsyms {
            let slice = try #require(dsym.binary?.slices.first)
            #expect(slice.fileType == MachOSlice.debugSymbolsFileType)
            #expect(slice.uuid == uuids[String(dsym.path.split(separator: "/").last ?? "")] ?? nil, "\(dsym.path)")
        }
        // The archive's identity still comes from its Info.plist; the app's binaries from its folder.
        #expect(archive.path.hasSuffix("Signed.xcarchive"))
        #expect(archive.appPath == "Products/Applications/Signed.app")
        // An app outside an archive has no dSYMs.
        #expect(try Self.build("Signed.app").dsyms.isEmpty)
        // bundles/Example.xcarchive has only dSYMs/.keep.
        let empty = try BuildArtifact(contentsOf: URL(fileURLWithPath: TestPaths.fixtures + "/bundles/Example.xcarchive"), trust: nil)
        #expect(empty.dsyms.isEmpty)
    }

    @Test func macOSLayoutFollowsTheFrameworksCurrentVersion() throws {
        let mac = try Self.build("SignedMac.app")
        #expect(mac.executables.map(\.role) == [.main, .framework, .systemExtension])
        #expect(mac.executables.map(\.path) == [
            "Contents/MacOS/SignedMac", "Contents/Frameworks/MacKit.framework/Versions/A/MacKit",
            "Contents/Library/SystemExtensions/com.example.mac.filter.systemextension/Contents/MacOS/com.example.mac.filter",
        ])
        #expect(mac.executables.map(\.bundleID) == ["com.example.mac", "com.example.MacKit", "com.example.mac.filter"])
        #expect(mac.executables[0].binary?.slices.map(\.architecture) == ["arm64", "x86_64"])
        #expect(mac.executables[1].binary?.layout == .fat64)
        #expect(mac.signingSubjects.map(\.isMacOS) == [true])
    }

    @Test func theCodeSignatureFacts() throws {
        let build = try Self.build("Signed.app")
        let main = try #require(build.executables.first?.codeSignature)
        #expect(main.identifier == "com.example.app")
        #expect(main.teamID == "TEAM123456")
        #expect(main.codeDirectories.map(\.hashType) == [.sha1, .sha256])
        #expect(main.codeDirectories.map(\.slot) == [0, 0x1000])
        #expect(main.cdhash == main.codeDirectories[1].cdhash, "the SHA-256 CodeDirectory's")
        #expect(main.cdhash?.count == 40)
        #expect(main.signingCertificate?.commonName == "Apple Distribution: Example Corp (TEAM123456)")
        #expect(main.certificates.count == 2, "the leaf and the fixture CA")
        #expect(main.certificates.contains { $0.commonName == "Catalog Test WWDR CA" })
        #expect(main.entitlements == main.derEntitlements, "the DER blob says what the XML one says")
        #expect(main.entitlements?["aps-environment"] == .string("production"))
        #expect(!main.isAdHoc)

        let adhoc = try #require(try Self.build("AdHoc.app").executables.first?.codeSignature)
        #expect(adhoc.isAdHoc)
        #expect(adhoc.codeDirectory?.isAdHoc == true)
        #expect(adhoc.teamID == nil)
        #expect(adhoc.certificates.isEmpty)
        #expect(adhoc.cdhash != nil)

        let linker = try MachOFile(contentsOf: URL(fileURLWithPath: Self.codesign + "macho/linker-signed-arm64"))
        let linkerSigned = try #require(linker.slices.first?.codeSignature)
        #expect(linkerSigned.codeDirectory?.isLinkerSigned == true)
        #expect(linkerSigned.isAdHoc && linkerSigned.entitlements == nil)

        let legacy = try MachOFile(contentsOf: URL(fileURLWithPath: Self.codesign + "macho/thin-armv7"))
        let sha1Only = try #require(legacy.slices.first?.codeSignature)
        #expect(sha1Only.codeDirectories.map(\.hashType) == [.sha1])
        #expect(sha1Only.cdhash == sha1Only.codeDirectories[0].hash, "a SHA-1 hash is 20 bytes already")
    }

    /// decode's JSON for a build with binaries: the documented keys, problems judged at the date given.
    @Test func theBuildJSON() throws {
        let build = try Self.build("Unsigned.app")
        guard case .object(let fields) = DecodedFile.build(build).json(path: "x", asOf: SigningProblemTests.asOf) else {
            Issue.record("not an object")
            return
        }
        let keys = fields.map(\.0)
        #expect(keys.contains("executables") && keys.contains("signing_problems") && !keys.contains("dsyms"))
        let problems = fields.first { $0.0 == "signing_problems" }?.1
        #expect(problems?.serialized(pretty: false).contains("\"code\":\"unsigned\"") == true)
        let executables = fields.first { $0.0 == "executables" }?.1.serialized(pretty: false) ?? ""
        #expect(executables.contains("\"code_signature\":null"))
        #expect(executables.contains("\"role\":\"main\""))
        // A stray Info.plist build has neither key, as before.
        guard case .object(let plist) = DecodedFile.infoPlist(try AppInfoDecoder.decode(
            try FileBytes.read(TestPaths.fixtures + "/plists/app-xml.plist", limit: 1 << 20))).json(path: "p") else { return }
        #expect(!plist.map(\.0).contains("executables"))
    }

    /// A bundle cannot make the reader leave it: a link out of the bundle is refused, and a
    /// `CFBundleExecutable` that is a path is no executable.
    @Test func nothingOutsideTheBundleIsRead() throws {
        let scratch = try Scratch()
        let folder = scratch.path
        let fm = FileManager.default
        try fm.createDirectory(atPath: folder + "/Escape.app", withIntermediateDirectories: true)
        try fm.copyItem(atPath: Self.codesign + "macho/thin-arm64", toPath: folder + "/outside")
        func info(_ executable: String) throws {
            let plist: [String: Any] = ["CFBundleIdentifier": "com.example.escape", "CFBundleExecutable": executable,
                                        "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1"]
            try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
                .write(to: URL(fileURLWithPath: folder + "/Escape.app/Info.plist"))
        }
        try info("Escape")
        try fm.createSymbolicLink(atPath: folder + "/Escape.app/Escape", withDestinationPath: "../outside")
        let linked = try BuildArtifact(contentsOf: URL(fileURLWithPath: folder + "/Escape.app"), trust: nil)
        let refused = try #require(linked.executables.first)
        #expect(refused.binary == nil)
        #expect(refused.error?.kind == .unreadable)
        #expect(refused.error?.reason.contains("out of the bundle") == true)

        try fm.removeItem(atPath: folder + "/Escape.app/Escape")
        try info("../outside")
        let named = try BuildArtifact(contentsOf: URL(fileURLWithPath: folder + "/Escape.app"), trust: nil)
        #expect(named.executables.isEmpty)
        #expect(named.signingSubjects.first?.binary == .missing)
        #expect(named.signingSubjects.first?.executable == "Escape", "judged as the bundle's own name")

        // A link inside the bundle is followed.
        try info("Escape")
        try fm.moveItem(atPath: folder + "/outside", toPath: folder + "/Escape.app/Real")
        try fm.createSymbolicLink(atPath: folder + "/Escape.app/Escape", withDestinationPath: "Real")
        let inside = try BuildArtifact(contentsOf: URL(fileURLWithPath: folder + "/Escape.app"), trust: nil)
        #expect(inside.executables.first?.binary?.slices.first?.uuid == "8AD76CE2-DD8E-C6B4-8138-1953064BB354")
    }
}
