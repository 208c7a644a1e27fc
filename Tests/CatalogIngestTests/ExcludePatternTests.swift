import Foundation
import Testing
@testable import CatalogIngest
@testable import CatalogStore
import CatalogTestSupport

/// Issue 9 §3: `--exclude` reads patterns as `.gitignore` does. A pattern with a slash matches the
/// path relative to the walked root; a bare name matches at any depth.
@Suite(.timeLimit(.minutes(10))) struct ExcludePatternTests {
    /// Whether `pattern` excludes the entry at `relative` below the root `/r` (a folder when `folder`).
    private func excludes(_ pattern: String, _ relative: String, folder: Bool = false) -> Bool {
        let name = String(relative.split(separator: "/").last ?? "")
        return ExcludePattern(pattern).matches(path: "/r/" + relative, relative: Substring(relative), name: name,
                                               isDirectory: { folder })
    }

    @Test func aBareNameMatchesAtAnyDepth() {
        #expect(excludes("malformed", "malformed", folder: true))
        #expect(excludes("malformed", "Fixtures/malformed", folder: true))
        #expect(excludes("*.dSYM", "a/b/App.app.dSYM", folder: true))
        #expect(excludes("*.ipa", "ipa/Example.ipa"))
        #expect(!excludes("malformed", "malformed-not"))
        #expect(!excludes("*.ipa", "Example.ipa.txt"))
    }

    @Test func aPatternWithASlashMatchesFromTheRoot() {
        #expect(excludes("malformed/*", "malformed/empty.mobileprovision"))
        #expect(excludes("malformed/*", "malformed/empty-dir.xcarchive", folder: true))
        // Anchored at the root, not at any depth.
        #expect(!excludes("malformed/*", "Fixtures/malformed/empty.mobileprovision"))
        #expect(excludes("Fixtures/malformed/*", "Fixtures/malformed/empty.mobileprovision"))
        #expect(!excludes("Fixtures/malformed/*", "malformed/empty.mobileprovision"))
        // A leading slash only anchors; a middle slash anchors as well.
        #expect(excludes("/profiles", "profiles", folder: true))
        #expect(!excludes("/profiles", "a/profiles", folder: true))
        #expect(excludes("a/profiles", "a/profiles", folder: true))
        #expect(!excludes("a/profiles", "b/a/profiles", folder: true))
        #expect(excludes("./malformed/*", "malformed/garbage.mobileprovision"))
        #expect(!excludes("./malformed/*", "x/malformed/garbage.mobileprovision"))
    }

    @Test func aStarDoesNotCrossASlashButTwoStarsDo() {
        #expect(!excludes("a/*.ipa", "a/b/x.ipa"))
        #expect(excludes("a/*/x.ipa", "a/b/x.ipa"))
        #expect(excludes("**/x.ipa", "x.ipa"))
        #expect(excludes("**/x.ipa", "a/b/c/x.ipa"))
        #expect(excludes("a/**/x.ipa", "a/x.ipa"))
        #expect(excludes("a/**/x.ipa", "a/b/c/x.ipa"))
        #expect(!excludes("a/**/x.ipa", "b/a/x.ipa"))
        // A trailing `**` is what is inside the folder, not the folder itself.
        #expect(excludes("build/**", "build/x"))
        #expect(!excludes("build/**", "build", folder: true))
    }

    @Test func aTrailingSlashMatchesFoldersOnly() {
        #expect(excludes("profiles/", "x/profiles", folder: true))
        #expect(!excludes("profiles/", "x/profiles", folder: false))
        #expect(excludes("x/profiles/", "x/profiles", folder: true))
    }

    @Test func anAbsolutePathStillMatchesByFullPath() {
        #expect(excludes("/r/malformed/*", "malformed/garbage.mobileprovision"))
        #expect(!excludes("/other/malformed/*", "malformed/garbage.mobileprovision"))
    }

    // MARK: Through an ingest

    /// Paths (relative to `base`) the run met as errors.
    private func errorPaths(_ report: IngestReport, under base: String) -> Set<String> {
        Set(report.errors.map { String($0.path.dropFirst(base.count + 1)) })
    }

    @Test func theIssuesPatternsExcludeTheMalformedFiles() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures()
        let all = try ingest([tree], db: scratch.file("all.sqlite"))
        #expect(errorPaths(all, under: tree).contains("malformed/garbage.mobileprovision"))
        #expect(all.errors.count >= 8)

        // Relative to the walked root…
        let relative = try ingest([tree], db: scratch.file("relative.sqlite"), excludes: ["malformed/*"])
        #expect(relative.errors.isEmpty, "\(relative.errors)")
        #expect(relative.profilesNew == all.profilesNew)
        // …so walking the folder above, the pattern names Fixtures too.
        let above = try ingest([scratch.path], db: scratch.file("above.sqlite"), excludes: ["Fixtures/malformed/*"])
        #expect(above.errors.isEmpty, "\(above.errors)")
        let unanchored = try ingest([scratch.path], db: scratch.file("unanchored.sqlite"), excludes: ["malformed/*"])
        #expect(unanchored.errors.count == all.errors.count)
        // A bare name at any depth.
        let bare = try ingest([scratch.path], db: scratch.file("bare.sqlite"), excludes: ["malformed"])
        #expect(bare.errors.isEmpty, "\(bare.errors)")
        let noIPA = try ingest([tree], db: scratch.file("noipa.sqlite"), excludes: ["*.ipa", "bundles/", "codesign/", "integrity/", "symbolication/"])
        let connection = try Connection.openCatalogue(path: scratch.file("noipa.sqlite"), readOnly: true)
        #expect(try connection.count("SELECT count(*) AS n FROM builds WHERE source_kind IN ('ipa', 'app', 'xcarchive')") == 0)
        #expect(noIPA.profilesNew > 0)
    }

    @Test func anExcludedPathIsNoLongerCatalogued() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("profiles", to: "tree/profiles")
        let db = scratch.file("catalog.sqlite")
        try ingest([scratch.file("tree")], db: db)
        let report = try ingest([scratch.file("tree")], db: db, excludes: ["profiles/ios-*"])
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        let gone = try connection.strings("SELECT path FROM profile_locations WHERE removed_at IS NOT NULL")
        #expect(!gone.isEmpty)
        #expect(gone.allSatisfy { ($0 as NSString).lastPathComponent.hasPrefix("ios-") && $0.hasPrefix(tree) })
        #expect(report.profilesRemoved == gone.count)
    }
}
