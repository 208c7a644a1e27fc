import Foundation
import Testing
@testable import CatalogIngest
@testable import CatalogStore
import CatalogTestSupport

/// Issue 17: one folder reached under two spellings — another case or Unicode normalisation on a
/// case-insensitive APFS volume, a symlink, the Xcode 16 profile folder symlinked to the old one —
/// is catalogued once, under the spelling the file system stores.
@Suite(.timeLimit(.minutes(10))) struct RootSpellingTests {
    private let profiles = ["ios-development.mobileprovision", "ios-adhoc.mobileprovision"]

    /// The folder name both ways: é precomposed (NFC, U+00E9) and decomposed (NFD, e + U+0301).
    private static let precomposed = "Provisioning Profil\u{E9}"
    private static let decomposed = "Provisioning Profile\u{301}"

    /// A tree `…/Library/MobileDevice/<name>` holding two profiles, made through mkdir(2) and open(2)
    /// with the name's bytes as given. Returns the folder under its on-disk spelling.
    private func makeTree(_ scratch: Scratch, name: String = precomposed) throws -> String {
        for profile in profiles {
            try scratch.writeExactly("Library/MobileDevice/\(name)/\(profile)",
                                     readBytes(IngestPaths.fixtures + "/profiles/" + profile))
        }
        return Scratch.storedSpelling(scratch.file("Library/MobileDevice/" + name))
    }

    /// Byte for byte (SQLite compares bytes, Swift strings would not).
    private func hasPrefix(_ path: String, _ prefix: String) -> Bool {
        Array(path.utf8).starts(with: Array(prefix.utf8))
    }

    private func containsBytes(_ text: String?, _ part: String) -> Bool {
        guard let text else { return false }
        return Data(text.utf8).range(of: Data(part.utf8)) != nil
    }

    private func liveLocations(_ db: String) throws -> [String] {
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        return try connection.query("SELECT path FROM profile_locations WHERE removed_at IS NULL ORDER BY path")
            .compactMap { $0.string("path") }
    }

    private func lastRunRoots(_ db: String) throws -> String? {
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        return try connection.queryFirst("SELECT roots FROM ingest_runs ORDER BY id DESC LIMIT 1")?.string("roots")
    }

    @Test func aRootInAnotherCaseAndNormalisationIsStoredUnderItsOnDiskSpelling() throws {
        let scratch = try Scratch()
        let folder = try makeTree(scratch)
        // What a user types on a case-insensitive Mac: lower case, and the é decomposed (NFD).
        let typed = scratch.file("library/mobiledevice/provisioning profile\u{301}")
        #expect(!Array(typed.utf8).elementsEqual(Array(folder.lowercased().utf8)))
        #expect(hasPrefix(folder, scratch.file("Library/MobileDevice/" + Self.precomposed)), "made with the bytes given")
        let db = scratch.file("catalog.sqlite")

        let first = try ingest([typed], db: db, resolver: CaseFoldingResolver())
        #expect(first.errors.isEmpty, "\(first.errors)")
        #expect(first.profilesNew == 2)
        let locations = try liveLocations(db)
        #expect(locations.count == 2)
        #expect(locations.allSatisfy { hasPrefix($0, folder + "/") }, "\(locations)")
        #expect(containsBytes(try lastRunRoots(db), folder))

        // The exact spelling next: the incremental index matches, nothing is duplicated or removed.
        let second = try ingest([folder], db: db, resolver: CaseFoldingResolver())
        #expect(second.filesUnchanged == 2)
        #expect(second.profilesNew == 0 && second.profilesRemoved == 0)
        #expect(try liveLocations(db) == locations)

        // And the typed spelling again, after a file went away: it is marked removed.
        try FileManager.default.removeItem(atPath: folder + "/" + profiles[0])
        let third = try ingest([typed], db: db, resolver: CaseFoldingResolver())
        #expect(third.profilesRemoved == 1)
        #expect(try liveLocations(db) == [folder + "/" + profiles[1]])
    }

    /// A PATH typed with é precomposed (as a keyboard gives it) whose folder is stored decomposed (as
    /// Finder and Foundation name folders on macOS): on a normalisation-insensitive volume (APFS) the
    /// path opens the folder, and the run catalogues it once, under the stored bytes, however many
    /// spellings of it are given. Where the file system tells them apart (Linux), the resolver
    /// stands in for the volume: names there are bytes, and the precomposed path is another folder.
    @Test func aPrecomposedPathToADecomposedFolderIsCataloguedOnceUnderTheStoredSpelling() throws {
        let scratch = try Scratch()
        let folder = try makeTree(scratch, name: Self.decomposed)
        let typed = scratch.file("Library/MobileDevice/" + Self.precomposed)
        #expect(!hasPrefix(folder, typed) && !hasPrefix(typed, folder))
        var info = stat()
        let volumeFolds = stat(typed, &info) == 0
        let resolver: any PathResolving = volumeFolds ? SystemPathResolver() : CaseFoldingResolver()
        let db = scratch.file("catalog.sqlite")

        let first = try ingest([typed, folder, typed + "/"], db: db, resolver: resolver)
        #expect(first.errors.isEmpty, "\(first.errors)")
        #expect(first.filesScanned == 2 && first.profilesNew == 2)
        let locations = try liveLocations(db)
        #expect(locations == profiles.sorted().map { folder + "/" + $0 })
        #expect(locations.allSatisfy { hasPrefix($0, folder + "/") }, "\(locations)")
        let roots = try lastRunRoots(db)
        #expect(containsBytes(roots, folder) && !containsBytes(roots, typed), "\(roots ?? "")")
        // Typed again: the same rows, unchanged.
        let second = try ingest([typed], db: db, resolver: resolver)
        #expect(second.filesUnchanged == 2 && second.profilesNew == 0 && second.profilesRemoved == 0)
        #expect(try liveLocations(db) == locations)

        if volumeFolds {
            // And through the command, as a user types it.
            let result = try CatalogProcess.run(["ingest", typed, "--db", db, "--quiet"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try liveLocations(db) == locations)
        } else {
            // On the real file system the precomposed path is not there: reported, nothing removed.
            let missing = try ingest([typed], db: db)
            #expect(missing.errors.map(\.path) == [typed])
            #expect(missing.profilesRemoved == 0)
            #expect(try liveLocations(db) == locations)
        }
    }

    @Test func theXcode16ProfileFolderSymlinkedToTheOldOneIsWalkedOnce() throws {
        let scratch = try Scratch()
        let userData = scratch.file("Library/Developer/Xcode/UserData/Provisioning Profiles")
        for name in profiles {
            try scratch.copy(IngestPaths.fixtures + "/profiles/" + name,
                             to: "Library/Developer/Xcode/UserData/Provisioning Profiles/" + name)
        }
        try FileManager.default.createDirectory(atPath: scratch.file("Library/MobileDevice"),
                                                withIntermediateDirectories: true)
        let old = scratch.file("Library/MobileDevice/Provisioning Profiles")
        #expect(symlink(userData, old) == 0)
        let db = scratch.file("catalog.sqlite")

        // The two default roots, in the order `catalog ingest` lists them.
        let report = try ingest([old, userData], db: db)
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.filesScanned == 2)
        #expect(try liveLocations(db) == profiles.sorted().map { userData + "/" + $0 })
        #expect(try lastRunRoots(db).map { $0.contains("UserData") && !$0.contains("MobileDevice") } == true)
    }

    @Test func rootsWithTheSameDeviceAndInodeAreOneWhateverTheirSpelling() throws {
        let scratch = try Scratch()
        let folder = try makeTree(scratch)
        let link = scratch.file("link")
        #expect(symlink(folder, link) == 0)
        // A resolver that leaves spellings alone, so only the identity check can merge them.
        let roots = RootResolver.resolve([link, folder + "/", folder], using: LiteralResolver())
        #expect(roots == [ResolvedRoot(path: link, aliases: [folder])])

        let db = scratch.file("catalog.sqlite")
        let report = try ingest([link, folder], db: db, resolver: LiteralResolver())
        #expect(report.filesScanned == 2)
        #expect(try liveLocations(db) == profiles.sorted().map { link + "/" + $0 })
    }

    @Test func rowsAnOlderVersionStoredUnderAnotherSpellingAreRetired() throws {
        let scratch = try Scratch()
        let folder = try makeTree(scratch)
        let link = scratch.file("link")
        #expect(symlink(folder, link) == 0)
        let db = scratch.file("catalog.sqlite")
        // A catalogue made before roots were resolved: rows keyed under the symlink's spelling.
        _ = try ingest([link], db: db, resolver: LiteralResolver())
        #expect(try liveLocations(db).allSatisfy { $0.hasPrefix(link + "/") })

        let report = try ingest([link], db: db)
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.profilesRemoved == 0, "the profiles are still there, under the other spelling")
        #expect(try liveLocations(db) == profiles.sorted().map { folder + "/" + $0 })
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        #expect(try connection.count("SELECT count(*) AS n FROM files WHERE path LIKE ?", [.text(link + "/%")]) == 0)
    }

    @Test func aMissingRootIsLeftAsGivenForTheWalkToReport() {
        let missing = "/nonexistent-\(UUID().uuidString)/profiles"
        #expect(RootResolver.resolve([missing, missing], using: SystemPathResolver())
                == [ResolvedRoot(path: missing, aliases: [])])
    }

    @Test func theSystemResolverResolvesSymlinksAndReportsIdentity() throws {
        let scratch = try Scratch()
        let folder = try makeTree(scratch)
        let link = scratch.file("link")
        #expect(symlink(folder, link) == 0)
        let resolver = SystemPathResolver()
        #expect(resolver.onDiskSpelling(of: link) == folder)
        #expect(resolver.onDiskSpelling(of: folder + "/./") == folder)
        #expect(resolver.identity(of: link) != nil)
        #expect(resolver.identity(of: link) == resolver.identity(of: folder))
        #expect(resolver.identity(of: scratch.path) != resolver.identity(of: folder))
    }
}

/// Resolves names as a case-insensitive, normalisation-insensitive volume (APFS, HFS+) does: each
/// component matches the stored name that equals it ignoring case (Swift's `==` already treats NFC
/// and NFD as equal), and the stored names are returned. Then the real file system resolves links.
struct CaseFoldingResolver: PathResolving {
    func onDiskSpelling(of path: String) -> String? {
        var resolved = ""
        for component in path.split(separator: "/") where component != "." {
            let parent = resolved.isEmpty ? "/" : resolved
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent),
                  let stored = names.first(where: { $0 == component })
                    ?? names.first(where: { $0.lowercased() == component.lowercased() }) else { return nil }
            resolved += "/" + stored
        }
        return SystemPathResolver().onDiskSpelling(of: resolved.isEmpty ? "/" : resolved)
    }

    func identity(of path: String) -> FileIdentity? {
        onDiskSpelling(of: path).flatMap { SystemPathResolver().identity(of: $0) }
    }
}

/// Keeps every spelling as given (as versions before issue 17 did) but reports real identities.
struct LiteralResolver: PathResolving {
    func onDiskSpelling(of path: String) -> String? { path }
    func identity(of path: String) -> FileIdentity? { SystemPathResolver().identity(of: path) }
}
