import CatalogTestSupport
import Foundation
import Testing

/// Issue 52 §11: `catalog install` puts profiles where Xcode reads them, named by UUID, written
/// whole, idempotent; refuses what is not Apple's or has expired unless told; records the
/// installed files in the catalogue.
@Suite(.timeLimit(.minutes(5))) struct InstallCommandTests {
    static let ios = CatalogProcess.fixtures + "/profiles/ios-development.mobileprovision"
    static let mac = CatalogProcess.fixtures + "/profiles/macos-development.provisionprofile"

    struct Setup {
        let scratch: Scratch
        var folder: String { scratch.path + "/Provisioning Profiles" }
        var db: String { scratch.path + "/catalog.sqlite" }

        init() throws { scratch = try Scratch() }

        func install(_ arguments: [String]) throws -> CatalogProcess.Result {
            try CatalogProcess.run(["install", "--dir", folder, "--db", db, "--json", "--as-of", "2026-12-05"] + arguments)
        }

        func rows(_ result: CatalogProcess.Result) throws -> [[String: Any]] {
            try CatalogProcess.json(result.stdout) as? [[String: Any]] ?? []
        }

        func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder).sorted() }
    }

    @Test func installsUnderTheUUIDWithXcodesExtensionWholeAndOnlyOnce() throws {
        let setup = try Setup()
        let first = try setup.install(["--allow-untrusted", Self.ios, Self.mac])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try setup.rows(first).map { $0["action"] as? String } == ["installed", "installed"])
        #expect(try setup.files() == ["0149F438-8850-4DD5-A903-F0CFDDA7F3F9.provisionprofile",
                                      "FF765057-911B-4E46-A94B-D0EC08C7F27F.mobileprovision"], "no temporary file left")
        let installed = setup.folder + "/FF765057-911B-4E46-A94B-D0EC08C7F27F.mobileprovision"
        #expect(FileManager.default.contents(atPath: installed) == FileManager.default.contents(atPath: Self.ios))
        let mode = (try FileManager.default.attributesOfItem(atPath: installed)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o644)
        let modified = try FileManager.default.attributesOfItem(atPath: installed)[.modificationDate] as? Date

        let again = try setup.install(["--allow-untrusted", Self.ios])
        #expect(again.status == 0)
        #expect(try setup.rows(again).first?["action"] as? String == "unchanged")
        #expect(try FileManager.default.attributesOfItem(atPath: installed)[.modificationDate] as? Date == modified, "not rewritten")

        // Other bytes under the same UUID are replaced whole.
        try Data("stale".utf8).write(to: URL(fileURLWithPath: installed))
        let replaced = try setup.install(["--allow-untrusted", Self.ios])
        #expect(try setup.rows(replaced).first?["action"] as? String == "replaced")
        #expect(FileManager.default.contents(atPath: installed) == FileManager.default.contents(atPath: Self.ios))
        #expect(try setup.files().count == 2)
    }

    @Test func refusesWhatIsNotApplesOrHasExpiredUnlessTold() throws {
        let setup = try Setup()
        let bare = CatalogProcess.fixtures + "/profiles/bare-plist.mobileprovision"
        let tampered = CatalogProcess.fixtures + "/signatures/plist-edited.mobileprovision"
        let refused = try setup.install([bare, tampered, Self.ios])
        #expect(refused.status == 1)
        let rows = try setup.rows(refused)
        #expect(rows.map { $0["action"] as? String } == ["refused", "refused", "refused"])
        #expect(rows.map { $0["signature"] as? String } == ["unsigned", "invalid", "untrusted"])
        #expect(refused.stderr.contains("bare-plist.mobileprovision: refused: signature unsigned"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: setup.folder + "/46108860-2000-4050-A219-2B0579857204.mobileprovision"))

        // Expired on 2026-07-15: refused even when its signature is allowed, unless --allow-expired.
        let wildcard = CatalogProcess.fixtures + "/profiles/wildcard.mobileprovision"
        let expired = try setup.install(["--allow-untrusted", wildcard, Self.ios])
        #expect(expired.status == 1, "the others are installed, the exit says one was refused")
        #expect(try setup.rows(expired).map { $0["action"] as? String } == ["refused", "installed"])
        #expect((try setup.rows(expired).first?["reason"] as? String)?.contains("expired on 2026-07-15") == true)
        let allowed = try setup.install(["--allow-untrusted", "--allow-expired", wildcard])
        #expect(allowed.status == 0)
        #expect(try setup.files().contains("1C2572BC-366E-44CD-AC23-F1DF78DD5080.mobileprovision"))
    }

    @Test func whatIsInstalledIsRecordedInTheCatalogueWithoutPassingForAnIngest() throws {
        let setup = try Setup()
        #expect(try setup.install(["--allow-untrusted", Self.ios]).status == 0)
        let profiles = try CatalogProcess.run(["profiles", "--db", setup.db, "--json"])
        let rows = try CatalogProcess.json(profiles.stdout) as? [[String: Any]] ?? []
        #expect(rows.map { $0["uuid"] as? String } == ["FF765057-911B-4E46-A94B-D0EC08C7F27F"])
        #expect(rows.first?["path"] as? String == setup.folder + "/FF765057-911B-4E46-A94B-D0EC08C7F27F.mobileprovision")
        let runs = try CatalogProcess.run(["runs", "--db", setup.db, "--json"])
        #expect((try CatalogProcess.json(runs.stdout) as? [Any])?.isEmpty == true, "an install is no ingest run: --max-age is not reset by it")
        // A catalogue that cannot be written (its folder is a file): installed all the same, said on stderr.
        try Data().write(to: URL(fileURLWithPath: setup.scratch.path + "/plain-file"))
        let unwritable = try CatalogProcess.run(["install", "--dir", setup.folder, "--allow-untrusted", "--json", Self.mac,
                                                 "--db", setup.scratch.path + "/plain-file/catalog.sqlite"])
        #expect(unwritable.status == 0)
        #expect(FileManager.default.fileExists(atPath: setup.folder + "/0149F438-8850-4DD5-A903-F0CFDDA7F3F9.provisionprofile"))
        #expect(unwritable.stderr.contains("installed, but not recorded in the catalogue"), "\(unwritable.stderr)")
    }

    #if !os(macOS)
    @Test func withoutXcodeItNeedsDir() throws {
        let result = try CatalogProcess.run(["install", Self.ios, "--allow-untrusted"], environment: ["HOME": try Scratch().path])
        #expect(result.status == 64)
        #expect(result.stderr.contains("pass --dir"), "\(result.stderr)")
    }
    #endif
}
