import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogCore

/// Issue 53 §5 in the library: which zips are app zips (decided from the central directory), the
/// links `ditto` stores followed inside the zip only, and the bundles nested in a zipped app read
/// as builds of their own.
@Suite struct AppZipTests {
    static let codesign = TestPaths.fixtures + "/codesign/"

    static func entries(_ names: [String]) -> [ZipEntry] {
        names.map { ZipEntry(name: $0, method: 0, compressedSize: 0, uncompressedSize: 0, crc32: 0, localHeaderOffset: 0) }
    }

    /// A zip of stored entries made by a Unix host, each a file, or a link when `link` is set.
    static func zip(_ members: [(name: String, contents: String, link: Bool)]) throws -> ZipArchive {
        try ZipArchive(bytes: StoredZip.bytes(members.map { StoredZip.Member($0.name, $0.contents, isLink: $0.link) }), path: "test.zip")
    }

    @Test func anAppZipIsOneAppAtTheTopWithAnInfoPlist() {
        #expect(IPAReader.topLevelAppPrefix(in: Self.entries(["A.app/Contents/Info.plist", "A.app/Contents/MacOS/A"])) == "A.app/")
        #expect(IPAReader.topLevelAppPrefix(in: Self.entries(["A.app/Info.plist"])) == "A.app/")
        // Finder's and ditto's extras beside it do not count.
        #expect(IPAReader.topLevelAppPrefix(in: Self.entries([".DS_Store", "__MACOSX/B.app/._Info.plist",
                                                               "__MACOSX/._A.app", "A.app/Contents/Info.plist"])) == "A.app/")
        // Two apps, an app without an Info.plist, an app one folder down, an .ipa's layout: no app zip.
        #expect(IPAReader.topLevelAppPrefix(in: Self.entries(["A.app/Contents/Info.plist", "B.app/Contents/Info.plist"])) == nil)
        #expect(IPAReader.topLevelAppPrefix(in: Self.entries(["A.app/main.swift", "A.app/Contents/Resources/Info.plist"])) == nil)
        #expect(IPAReader.topLevelAppPrefix(in: Self.entries(["Top/A.app/Contents/Info.plist"])) == nil)
        #expect(IPAReader.topLevelAppPrefix(in: Self.entries(["Payload/A.app/Info.plist"])) == nil)
        #expect(IPAReader.topLevelAppPrefix(in: Self.entries([".app/Info.plist"])) == nil)
    }

    @Test func dittosLinksAreFollowedInsideTheZip() throws {
        let files = ZipBundleFiles(try ZipArchive(path: Self.codesign + "SignedMac.zip"))
        let framework = "SignedMac.app/Contents/Frameworks/MacKit.framework"
        #expect(files.symbolicLinkTarget(framework + "/Versions/Current") == "A")
        #expect(files.symbolicLinkTarget(framework + "/MacKit") == "Versions/Current/MacKit")
        #expect(files.symbolicLinkTarget(framework + "/Versions/A/MacKit") == nil)
        #expect(files.entries(of: framework).map { "\($0.name) \($0.kind)" }
                == ["MacKit symlink", "Resources symlink", "Versions directory"])
        #expect(files.children(of: framework + "/Versions/Current") == ["MacKit", "Resources", "_CodeSignature"])
        #expect(files.isFile(framework + "/MacKit") && files.isFile(framework + "/Resources/Info.plist"))
        #expect(try files.read(framework + "/MacKit", limit: 1 << 20) == files.read(framework + "/Versions/A/MacKit", limit: 1 << 20))
        // A link to a folder is no file.
        #expect(!files.isFile(framework + "/Versions/Current"))
    }

    @Test func aLinkNeverLeadsOutOfTheZipOrRoundInCircles() throws {
        let files = ZipBundleFiles(try Self.zip([
            ("A.app/Contents/Info.plist", "<plist/>", false),
            ("A.app/Contents/up", "../../../etc/passwd", true),
            ("A.app/Contents/root", "/etc/passwd", true),
            ("A.app/Contents/loop1", "loop2", true),
            ("A.app/Contents/loop2", "loop1", true),
            ("A.app/Contents/plist", "./Info.plist", true),
        ]))
        for name in ["up", "root", "loop1"] {
            let path = "A.app/Contents/" + name
            #expect(!files.isFile(path) && !files.isInside(path), "\(name)")
            #expect(throws: DecodeError.self, "\(name)") { try files.read(path, limit: 1 << 20) }
        }
        #expect(try files.read("A.app/Contents/plist", limit: 100) == Array("<plist/>".utf8))
        #expect(files.symbolicLinkTarget("A.app/Contents/up") == "../../../etc/passwd", "the link itself is still told")
    }

    @Test func bundlesNestedInAZippedAppAreBuildsOfTheirOwn() throws {
        let ipa = try ZipArchive(path: Self.codesign + "Signed.ipa")
        let read = try IPAReader.readBuilds(ipa, app: "Payload/Signed.app/", kind: .ipa, trust: nil)
        #expect(read.problems.isEmpty)
        // As in the .app folder: the extension, the watch app and the App Clip.
        #expect(read.builds.map { "\($0.appPath ?? "-") \($0.info.bundleID ?? "-")" } == [
            "Payload/Signed.app com.example.app",
            "Payload/Signed.app/PlugIns/Widget.appex com.example.app.widget",
            "Payload/Signed.app/Watch/SignedWatch.app com.example.app.watchkitapp",
            "Payload/Signed.app/AppClips/SignedClip.app com.example.app.Clip",
        ])
        let watch = read.builds[2]
        #expect(watch.sourceKind == .ipa && watch.path == ipa.path)
        #expect(watch.executables.map(\.path) == ["Payload/Signed.app/Watch/SignedWatch.app/SignedWatch"])
        #expect(watch.executables.first?.binary?.slices.map(\.uuid) == ["724D49A5-7B9B-B751-E99C-9D9F0ED9EF1C",
                                                                       "15D9DEEA-F36C-19CC-ED8C-1C035B364238"])
        // The folder gives the same builds, bundle for bundle.
        let folder = try BuildArtifact(contentsOf: URL(fileURLWithPath: Self.codesign + "Signed.app/Watch/SignedWatch.app"), trust: nil)
        #expect(folder.info == watch.info && folder.executables.map(\.binary) == watch.executables.map(\.binary))

        let zip = try BuildArtifact(contentsOf: URL(fileURLWithPath: Self.codesign + "SignedMac.zip"), trust: nil)
        #expect(zip.sourceKind == .zip && zip.appPath == "SignedMac.app" && zip.info.bundleID == "com.example.mac")
        #expect(zip.embeddedProfilePath == Self.codesign + "SignedMac.zip!SignedMac.app/Contents/embedded.provisionprofile")
        #expect(zip.profile?.uuid == "0149F438-8850-4DD5-A903-F0CFDDA7F3F9")
        #expect(zip.integrityProblems.isEmpty, "\(zip.integrityProblems)")
    }

    @Test func aNestedBundleThatDoesNotReadIsNamedAndTheOthersKept() throws {
        let read = try IPAReader.readBuilds(try Self.zip([
            ("Payload/A.app/Info.plist", "<plist><dict><key>CFBundleIdentifier</key><string>a</string></dict></plist>", false),
            ("Payload/A.app/PlugIns/Bad.appex/Info.plist", "not a plist", false),
            ("Payload/A.app/PlugIns/Good.appex/Info.plist", "<plist><dict><key>CFBundleIdentifier</key><string>g</string></dict></plist>", false),
        ]), app: "Payload/A.app/", kind: .ipa, trust: nil)
        #expect(read.builds.map(\.info.bundleID) == ["a", "g"])
        #expect(read.problems.map(\.path) == ["test.zip!Payload/A.app/PlugIns/Bad.appex/Info.plist"])
    }
}
