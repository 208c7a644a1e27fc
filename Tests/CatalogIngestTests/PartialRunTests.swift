import CatalogCore
import Foundation
import Testing
@testable import CatalogIngest
@testable import CatalogStore
import CatalogTestSupport

extension JSONValue {
    var intValue: Int? { if case .int(let value) = self { return Int(value) } else { return nil } }
    var stringValue: String? { if case .string(let value) = self { return value } else { return nil } }
    var arrayValue: [JSONValue]? { if case .array(let values) = self { return values } else { return nil } }
}

/// Issue 9 §3: runs that partly fail (a missing root, a file that breaks after it was catalogued)
/// and what they report (current errors, renewals, removed profiles and builds).
@Suite(.timeLimit(.minutes(10))) struct PartialRunTests {
    private static let profile = IngestPaths.fixtures + "/profiles/ios-enterprise.mobileprovision"

    private func queries(_ db: String) throws -> CatalogQueries {
        CatalogQueries(try Connection.openCatalogue(path: db, readOnly: true))
    }

    /// `catalog errors` without `--run`: (run, path) of every error current now.
    private func currentErrors(_ db: String) throws -> [String] {
        try queries(db).errors(runID: nil).map { "\($0.runID) \($0.path)" }
    }

    // MARK: A root that does not exist or cannot be read

    @Test func aMissingRootIsAnErrorAndTheOtherRootsAreIngested() throws {
        let scratch = try Scratch()
        let good = try scratch.copyFixtures("profiles", to: "good")
        let missing = scratch.file("missing")
        let db = scratch.file("catalog.sqlite")
        let report = try ingest([missing, good], db: db)
        #expect(report.failedRoots.map(\.path) == [missing])
        #expect(report.failedRoots.first?.message == "cannot read: No such file or directory")
        #expect(report.errors.map(\.path) == [missing])
        #expect(report.profilesNew > 10)
        #expect(try currentErrors(db) == ["1 \(missing)"])
    }

    @Test func aRootThatVanishesMarksNothingRemovedAndKeepsItsErrors() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures()
        let db = scratch.file("catalog.sqlite")
        let first = try ingest([tree], db: db)
        let before = try canonicalDump(db)
        let errors = try currentErrors(db)
        #expect(errors.count == first.errors.count && errors.allSatisfy { $0.hasPrefix("1 ") })

        // Unmounted: the root is missing, and nothing under it changes.
        try FileManager.default.moveItem(atPath: tree, toPath: scratch.file("elsewhere"))
        let second = try ingest([tree], db: db)
        #expect(second.failedRoots.map(\.path) == [tree])
        #expect(second.profilesRemoved == 0 && second.buildsRemoved == 0)
        #expect(try canonicalDump(db) == before)
        #expect(try currentErrors(db) == (errors + ["2 \(tree)"]).sorted { $0.dropFirst(2) < $1.dropFirst(2) })

        // Back again: its errors are met again by run 3 and the root's own error is gone.
        try FileManager.default.moveItem(atPath: scratch.file("elsewhere"), toPath: tree)
        let third = try ingest([tree], db: db)
        #expect(third.failedRoots.isEmpty)
        #expect(try currentErrors(db) == errors.map { "3" + $0.dropFirst() })
    }

    @Test(.enabled(if: Unprivileged.isAvailable, "needs a non-root user or setpriv to make a folder unreadable"))
    func anUnreadableRootExits1AndMarksNothingRemoved() throws {
        let scratch = try Scratch()
        let tree = try scratch.copyFixtures("profiles", to: "tree")
        let other = try scratch.copyFixtures("bundles", to: "other")
        let db = scratch.file("catalog.sqlite")
        try Unprivileged.open(scratch.path)
        let first = try Unprivileged.run(["ingest", tree, "--db", db, "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        let before = try canonicalDump(db)

        chmod(tree, 0o000)
        let second = try Unprivileged.run(["ingest", tree, other, "--db", db])
        chmod(tree, 0o755)
        #expect(second.status == 1)
        #expect(second.stderr.hasSuffix(
            "error: \(tree): cannot read folder: Permission denied; nothing under it was marked removed\n"),
            "\(second.stderr)")
        #expect(second.stderr.contains(" 0 removed), "), "\(second.stderr)")
        // The other root was ingested; nothing of the unreadable one changed.
        let after = try canonicalDump(db)
        #expect(after.filter { $0.hasPrefix("build ") }.count > 0)
        #expect(after.filter { $0.contains(tree + "/") } == before.filter { $0.contains(tree + "/") })
    }

    @Test(.enabled(if: Unprivileged.isAvailable, "needs a non-root user or setpriv to make a file unreadable"))
    func anUnreadableFileGivenAsTheRootExits1() throws {
        let scratch = try Scratch()
        let file = try scratch.copy(Self.profile, to: "tree/locked.mobileprovision")
        let db = scratch.file("catalog.sqlite")
        try Unprivileged.open(scratch.path)
        chmod(file, 0o000)
        let result = try Unprivileged.run(["ingest", file, "--db", db])
        #expect(result.status == 1)
        #expect(result.stderr.hasSuffix(
            "error: \(file): cannot read: Permission denied; nothing under it was marked removed\n"), "\(result.stderr)")
    }

    // MARK: A catalogued file that breaks

    @Test func aTruncatedCopyShowsItsErrorAndTheProfileStaysThroughItsOtherCopy() throws {
        let scratch = try Scratch()
        let broken = try scratch.copy(Self.profile, to: "tree/a.mobileprovision")
        let other = try scratch.copy(Self.profile, to: "tree/b.mobileprovision")
        let db = scratch.file("catalog.sqlite")
        try ingest([scratch.file("tree")], db: db)
        let bytes = try readBytes(broken)
        let uuid = try queries(db).profileUUID(atPath: broken) ?? ""
        let lastGoodRead = try Connection.openCatalogue(path: db, readOnly: true)
            .strings("SELECT last_seen FROM profile_locations WHERE path = ?", [.text(broken)])

        try scratch.write("tree/a.mobileprovision", Array(bytes.prefix(bytes.count / 2)))
        let report = try ingest([scratch.file("tree")], db: db)
        #expect(report.errors.map(\.path) == [broken])
        #expect(report.profilesRemoved == 0)
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        // Not "present with stale facts": removed, with the reason; size and last_seen are those of
        // the last time it decoded (whether or not the two runs fall in the same second).
        #expect(try connection.strings("""
            SELECT (removed_at IS NOT NULL) || ' ' || size || ' ' || last_seen || ' ' || error
            FROM profile_locations WHERE path = ?
            """, [.text(broken)]) == ["1 \(bytes.count) \(lastGoodRead.first ?? "?") \(report.errors.first?.message ?? "?")"])
        #expect(try connection.strings("SELECT removed_at IS NULL FROM profile_locations WHERE path = ?",
                                       [.text(other)]) == ["1"])
        // The profile stays catalogued (and present) through its other copy.
        let locations = try queries(db).profileDetail(uuid: uuid)?.locations ?? []
        #expect(locations.count == 2)
        #expect(locations.first?.path == other)
        #expect(locations.last?.error == report.errors.first?.message)
        #expect(try connection.count("SELECT count(*) AS n FROM files WHERE status = 'error'") == 1)

        // Mended, the location is present again and its error cleared.
        try scratch.write("tree/a.mobileprovision", bytes)
        let mended = try ingest([scratch.file("tree")], db: db)
        #expect(mended.errors.isEmpty)
        #expect(try connection.strings("SELECT (removed_at IS NULL) || ' ' || ifnull(error, '-') FROM profile_locations")
                == ["1 -", "1 -"])
        #expect(try currentErrors(db).isEmpty)
    }

    @Test func truncatingTheOnlyCopyRemovesTheProfile() throws {
        let scratch = try Scratch()
        let only = try scratch.copy(Self.profile, to: "tree/only.mobileprovision")
        let db = scratch.file("catalog.sqlite")
        try ingest([scratch.file("tree")], db: db)
        try scratch.write("tree/only.mobileprovision", Array(try readBytes(only).prefix(100)))
        let report = try ingest([scratch.file("tree")], db: db)
        #expect(report.profilesRemoved == 1)
        #expect(report.profilesTotal == 0)
        var filter = CatalogQueries.ProfileFilter()
        filter.scope = .removed
        #expect(try queries(db).profiles(filter).count == 1)
        // Still broken on the next run: nothing more is removed, the error is still current.
        let again = try ingest([scratch.file("tree")], db: db)
        #expect(again.profilesRemoved == 0 && again.errors.count == 1)
        #expect(try currentErrors(db) == ["3 \(only)"])
    }

    @Test func aTruncatedIPALosesItsBuildsAndItsEmbeddedProfile() throws {
        let scratch = try Scratch()
        let ipa = try scratch.copy(IngestPaths.fixtures + "/ipa/Example.ipa", to: "tree/Example.ipa")
        let db = scratch.file("catalog.sqlite")
        let first = try ingest([scratch.file("tree")], db: db)
        #expect(first.buildsNew >= 1)
        try scratch.write("tree/Example.ipa", Array(try readBytes(ipa).prefix(200)))
        let report = try ingest([scratch.file("tree")], db: db)
        #expect(report.errors.count == 1)
        #expect(report.buildsRemoved == first.buildsNew)
        // The app's profile and its extension's.
        #expect(report.profilesRemoved == 2)
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        let message = report.errors.first?.message ?? "?"
        #expect(try connection.strings("SELECT (removed_at IS NOT NULL) || ' ' || error FROM builds")
                == Array(repeating: "1 \(message)", count: first.buildsNew))
        #expect(try connection.strings("SELECT (removed_at IS NOT NULL) || ' ' || error FROM profile_locations")
                == ["1 \(message)", "1 \(message)"])
        var filter = CatalogQueries.BuildFilter()
        filter.presence = .removed
        #expect(try queries(db).builds(filter).allSatisfy { $0.error == message })
    }

    // MARK: Errors current now

    @Test func errorsListEveryFileInErrorWithTheRunThatLastMetIt() throws {
        let scratch = try Scratch()
        let a = try scratch.copyFixtures("malformed", to: "a")
        let b = scratch.file("b")
        try scratch.copy(IngestPaths.fixtures + "/malformed/garbage.mobileprovision", to: "b/garbage.mobileprovision")
        let db = scratch.file("catalog.sqlite")
        let first = try ingest([a], db: db)
        let second = try ingest([b], db: db)
        #expect(second.errors.map(\.path) == [b + "/garbage.mobileprovision"])
        // Run 2 did not walk a: a's errors are still current, with run 1.
        let current = try currentErrors(db)
        #expect(current.count == first.errors.count + 1)
        #expect(current.contains("1 \(a)/garbage.mobileprovision"))
        #expect(current.contains("2 \(b)/garbage.mobileprovision"))
        #expect(try queries(db).errors(runID: 2).count == 1)
        #expect(try queries(db).errors(runID: 1).count == first.errors.count)

        // Fixed (here: deleted) under a, and met again otherwise.
        try FileManager.default.removeItem(atPath: a + "/garbage.mobileprovision")
        let third = try ingest([a], db: db)
        #expect(third.errors.count == first.errors.count - 1)
        let after = try currentErrors(db)
        #expect(!after.contains { $0.hasSuffix("\(a)/garbage.mobileprovision") })
        #expect(after.filter { $0.hasPrefix("3 ") }.count == third.errors.count)
        #expect(after.contains("2 \(b)/garbage.mobileprovision"))
        // History is kept: run 1 still lists what it met.
        #expect(try queries(db).errors(runID: 1).count == first.errors.count)
    }

    @Test func anUnchangedAppWithABrokenEmbeddedProfileStaysInError() throws {
        let scratch = try Scratch()
        let app = try scratch.copy(IngestPaths.fixtures + "/bundles/Example.app", to: "tree/Example.app")
        try scratch.write("tree/Example.app/embedded.mobileprovision", Array("not a profile".utf8))
        let db = scratch.file("catalog.sqlite")
        let first = try ingest([scratch.file("tree")], db: db)
        #expect(first.errors.map(\.path) == [app + "/embedded.mobileprovision"])
        let second = try ingest([scratch.file("tree")], db: db)
        #expect(second.errors.map(\.path) == [app + "/embedded.mobileprovision"])
        #expect(try currentErrors(db) == ["2 \(app)/embedded.mobileprovision"])
    }

    // MARK: Renewals

    private static let adhocOld = "44C6C3D6-6720-46AD-AD64-9FC192DFFA1E"
    private static let adhocNew = "4AA98B40-F571-4848-AF74-0DF1523AE283"

    private func renewalFixture(_ name: String) -> String {
        IngestPaths.fixtures + "/renewals/\(name).mobileprovision"
    }

    @Test(arguments: [("a-old", "b-new"), ("b-old", "a-new")])
    func aFirstIngestIntoAnEmptyCatalogueHasNoRenewals(oldName: String, newName: String) throws {
        let scratch = try Scratch()
        try scratch.copy(renewalFixture("renew-adhoc-old"), to: "tree/\(oldName).mobileprovision")
        try scratch.copy(renewalFixture("renew-adhoc-new"), to: "tree/\(newName).mobileprovision")
        let db = scratch.file("catalog.sqlite")
        let report = try ingest([scratch.file("tree")], db: db)
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.profilesNew == 2 && report.profilesRenewed == 0)
        // They are still each other's renewals in `show`.
        let renewals = try queries(db).profileDetail(uuid: Self.adhocNew)?.renewals ?? []
        #expect(renewals.map { "\($0.uuid) \($0.relation.rawValue)" }
                == ["\(Self.adhocOld) older"])

        // The whole fixture tree, renewal pairs included: none on a first ingest.
        let all = try ingest([IngestPaths.fixtures], db: scratch.file("all.sqlite"))
        #expect(all.profilesRenewed == 0 && all.profilesNew > 20)
    }

    @Test func aRenewalRenewsAProfileAnEarlierRunCatalogued() throws {
        let scratch = try Scratch()
        try scratch.copy(renewalFixture("renew-adhoc-old"), to: "tree/old.mobileprovision")
        let db = scratch.file("catalog.sqlite")
        try ingest([scratch.file("tree")], db: db)
        try scratch.copy(renewalFixture("renew-adhoc-new"), to: "tree/new.mobileprovision")
        // Same app id and team, another kind: not a renewal.
        try scratch.copy(renewalFixture("renew-development"), to: "tree/development.mobileprovision")
        let report = try ingest([scratch.file("tree")], db: db)
        #expect(report.profilesRenewed == 1 && report.profilesNew == 1)
        let run = try queries(db).runs(limit: 1).first
        #expect(run?.counts.profilesRenewed == 1 && run?.counts.profilesNew == 1)

        // Found late, an older profile renews nothing.
        let late = scratch.file("late.sqlite")
        try ingest([scratch.file("tree/new.mobileprovision")], db: late)
        let older = try ingest([scratch.file("tree/old.mobileprovision")], db: late)
        #expect(older.profilesRenewed == 0 && older.profilesNew == 1)
    }

    // MARK: The summary

    @Test func theSummarySaysWhatWasCheckedAndWhatWasRead() throws {
        let scratch = try Scratch()
        try scratch.copy(IngestPaths.fixtures + "/plists/app-xml.plist", to: "tree/App/Info.plist")
        try scratch.copy(IngestPaths.fixtures + "/plists/framework.plist", to: "tree/Framework/Info.plist")
        try scratch.copy(Self.profile, to: "tree/p.mobileprovision")
        let db = scratch.file("catalog.sqlite")
        let first = try ingest([scratch.file("tree")], db: db)
        #expect(first.filesRead == first.filesScanned)
        #expect(first.filesScanned == 3 && first.filesSkipped == 1)
        #expect(first.summary.hasPrefix("checked \(first.filesScanned) files in "))
        #expect(first.summary.contains("(read 3, 0 unchanged): 1 profile (+1 new, 0 renewed, 0 removed), "
                                       + "1 build (+1 new, 0 removed); 0 errors; 1 skipped (1 Info.plist not an app's or with $(…) placeholders)"))
        let second = try ingest([scratch.file("tree")], db: db)
        #expect(second.summary.contains("(read 0, \(second.filesScanned) unchanged)"), "\(second.summary)")
        // The framework's Info.plist is still left out, unchanged: the summary still says so.
        #expect(second.filesSkipped == 1)
        #expect(second.summary.hasSuffix("; 0 errors; 1 skipped (1 Info.plist not an app's or with $(…) placeholders)"),
                "\(second.summary)")
    }
}
