import Foundation
import Testing
@testable import CatalogIngest
@testable import CatalogStore
import CatalogTestSupport

/// Issue 17: names as `readdir` gives them (read in place, only as long as they are) and the
/// AppleDouble sidecars macOS writes on exFAT, FAT, NFS and SMB volumes.
@Suite(.timeLimit(.minutes(10))) struct WalkerNameTests {
    private let profile = IngestPaths.fixtures + "/profiles/ios-development.mobileprovision"

    /// The header of an AppleDouble file (magic 0x00051607, version 2), as macOS writes `._name`
    /// beside `name` to keep its extended attributes on a volume without them.
    private let appleDouble: [UInt8] = [0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00]
        + Array("Mac OS X        ".utf8) + [UInt8](repeating: 0, count: 4070)

    @Test func appleDoubleSidecarsAreSkippedAndCounted() throws {
        let scratch = try Scratch()
        let good = try scratch.copy(profile, to: "volume/Profiles/good.mobileprovision")
        for name in ["._good.mobileprovision", "._other.provisionprofile", "._Build.ipa", "._notes.txt"] {
            try Data(appleDouble).write(to: URL(fileURLWithPath: scratch.file("volume/Profiles/" + name)))
        }
        try scratch.copy(IngestPaths.fixtures + "/bundles/Example.app", to: "volume/Example.app")
        try Data(appleDouble).write(to: URL(fileURLWithPath: scratch.file("volume/._Example.app")))
        let db = scratch.file("catalog.sqlite")

        let report = try ingest([scratch.file("volume")], db: db)
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.profilesNew == 3)  // good, and the app's and its widget's embedded profiles
        // The three sidecars of would-be candidates; ._notes.txt and ._Example.app were never candidates.
        #expect(report.filesSkipped == 3)
        #expect(report.summary.contains("; 3 skipped"), "\(report.summary)")
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        #expect(try connection.strings("SELECT path FROM profile_locations WHERE container_kind = 'standalone'") == [good])
        #expect(try connection.count("SELECT count(*) AS n FROM files WHERE path LIKE '%/._%'") == 0)
    }

    @Test func aSidecarGivenAsARootIsStillRead() throws {
        let scratch = try Scratch()
        let sidecar = scratch.file("._good.mobileprovision")
        try Data(appleDouble).write(to: URL(fileURLWithPath: sidecar))
        let report = try ingest([sidecar], db: scratch.file("catalog.sqlite"))
        // Named explicitly, it is decoded (and found not to be a profile), not silently dropped.
        #expect(report.errors.map(\.path) == [sidecar])
    }

    @Test func namesOfEveryLengthAreReadExactly() throws {
        let scratch = try Scratch()
        let suffix = ".mobileprovision"
        // 1 byte of stem up to the 255-byte limit of a name, in ASCII and in 2- and 3-byte UTF-8.
        var names = ["a" + suffix, "ab" + suffix, String(repeating: "x", count: 255 - suffix.utf8.count) + suffix,
                     String(repeating: "\u{E9}", count: (255 - suffix.utf8.count) / 2) + suffix,
                     String(repeating: "\u{20AC}", count: (255 - suffix.utf8.count) / 3) + suffix]
        names += (0..<40).map { "n\($0)" + suffix }
        // Through open(2), with the bytes given: Foundation on macOS would decompose each é into
        // three bytes, and the longest name would no longer fit.
        let bytes = try readBytes(profile)
        for name in names {
            #expect(name.utf8.count <= 255)
            try scratch.writeExactly("tree/" + name, bytes)
        }
        var walker = TreeWalker()
        var found: [String] = []
        walker.walk(scratch.file("tree")) { found.append(($0.path as NSString).lastPathComponent) }
        #expect(walker.problems.isEmpty, "\(walker.problems)")
        // The names as the folder's listing spells them, byte for byte, and those are the names made.
        let stored = Scratch.listing(scratch.file("tree"))
        #expect(found.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
                == stored.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) })
        #expect(stored.sorted() == names.sorted())
        #expect(stored.allSatisfy { name in names.contains { Array($0.utf8) == Array(name.utf8) } })
    }
}
