import Foundation
import Testing
import CatalogTestSupport

/// Issue 9 §5: FIFOs named like inputs (a profile, an IPA, an app's Info.plist) neither hang
/// `catalog decode` nor a nightly `catalog ingest`; each child is killed if it runs past 30 s.
@Suite(.timeLimit(.minutes(10)), .enabled(if: CatalogBinary.isAvailable, "the catalog binary is not built"))
struct FIFOTests {
    private func makeTree(_ scratch: Scratch) throws -> String {
        let tree = try scratch.copyFixtures("profiles", to: "tree")
        for name in ["x.mobileprovision", "x.provisionprofile", "x.ipa"] {
            try #require(mkfifo(tree + "/" + name, 0o644) == 0)
        }
        let app = tree + "/Fifo.app"
        try FileManager.default.createDirectory(atPath: app, withIntermediateDirectories: false)
        try #require(mkfifo(app + "/Info.plist", 0o644) == 0)
        try #require(mkfifo(app + "/embedded.mobileprovision", 0o644) == 0)
        return tree
    }

    private func run(_ arguments: [String]) throws -> CatalogBinary.Result? {
        try CatalogBinary.Child(arguments).wait(timeout: 30)
    }

    @Test func decodeRefusesAFIFOAtOnce() throws {
        let scratch = try Scratch()
        let tree = try makeTree(scratch)
        for name in ["x.mobileprovision", "x.ipa", "Fifo.app/Info.plist"] {
            let result = try #require(try run(["decode", tree + "/" + name]), "decode \(name) hung")
            #expect(result.status == 1, "\(name): \(result.stdout)")
            #expect(result.stderr.contains("not a regular file (a FIFO)"), "\(name): \(result.stderr)")
        }
        let app = try #require(try run(["decode", tree + "/Fifo.app"]), "decode Fifo.app hung")
        #expect(app.status == 1)
    }

    @Test func ingestOfATreeWithFIFOsFinishes() throws {
        let scratch = try Scratch()
        let tree = try makeTree(scratch)
        let db = scratch.file("catalog.sqlite")
        let result = try #require(try run(["ingest", tree, "--db", db]), "the ingest hung on a FIFO")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
        // The profiles beside the FIFOs are catalogued.
        let profiles = try #require(try run(["profiles", "--db", db, "--format", "json"]))
        let listed = try JSONSerialization.jsonObject(with: Data(profiles.stdout.utf8)) as? [Any]
        #expect((listed?.count ?? 0) > 0)
    }

    /// A FIFO given as a root is an error for that path, reported at once.
    @Test func ingestOfAFIFORootFinishes() throws {
        let scratch = try Scratch()
        let tree = try makeTree(scratch)
        let db = scratch.file("catalog.sqlite")
        let result = try #require(try run(["ingest", tree + "/x.mobileprovision", "--db", db]),
                                  "the ingest hung on a FIFO root")
        #expect(result.status == 0 || result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("FIFO"), "\(result.stderr)")
    }
}
