import Foundation
import Testing
@testable import CatalogStore

/// Checks a catalogue against an `expected.json` (the fixtures' or the real corpus's): every profile
/// UUID is catalogued and every expected build is found. `base` is the folder that the expected
/// paths are relative to, `prefix` the first path component they carry (`Fixtures/`, `tree/`), and
/// `root` where that folder was ingested from.
struct ExpectedCatalogue {
    var expected: [String: Any]
    var prefix: String
    var root: String

    func profileUUIDs() -> [String] {
        (expected["profiles"] as? [[String: Any]] ?? []).compactMap { $0["uuid"] as? String }
    }

    func builds() -> [[String: Any]] {
        expected["builds"] as? [[String: Any]] ?? []
    }

    /// `Fixtures/bundles/X.app` → `<root>/bundles/X.app`.
    func absolute(_ relative: String) -> String {
        relative.hasPrefix(prefix) ? root + "/" + relative.dropFirst(prefix.count) : root + "/" + relative
    }

    func check(_ db: Connection, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let uuids = Set(try db.strings("SELECT uuid FROM profiles"))
        for uuid in profileUUIDs() {
            #expect(uuids.contains(uuid.uppercased()), "profile \(uuid) is not catalogued", sourceLocation: sourceLocation)
        }
        for build in builds() {
            try check(build: build, db, sourceLocation: sourceLocation)
        }
    }

    private func check(build: [String: Any], _ db: Connection, sourceLocation: SourceLocation) throws {
        let relative = build["path"] as? String ?? ""
        let path = absolute(relative)
        let kind = build["source_kind"] as? String ?? ""
        if kind == "app", let range = path.range(of: ".xcarchive/") {
            // Design decision: an archive is one build (path = the .xcarchive, app_path = the app inside),
            // so the archive's inner app counts as found through that build.
            let archive = String(path[..<range.lowerBound]) + ".xcarchive"
            let rows = try db.query("SELECT path, app_path FROM builds WHERE path = ? AND source_kind = 'xcarchive'",
                                    [.text(archive)])
            let matched = rows.contains { ($0.string("path") ?? "") + "/" + ($0.string("app_path") ?? "") == path }
            #expect(matched, "no xcarchive build holds the app \(relative) (rows: \(rows))", sourceLocation: sourceLocation)
            return
        }
        let rows = try db.query("""
            SELECT bundle_id, short_version, build, source_kind, profile_uuid, app_path FROM builds
            WHERE path = ? AND removed_at IS NULL
            """, [.text(path)])
        // The container itself; for an .app that is the row with app_path ''. An .ipa or app zip also
        // holds rows for the bundles nested in its app: its own is the app it names, else the shortest.
        let zipped = kind == "ipa" || kind == "zip"
        let container = zipped ? rows.first { $0.string("app_path") == build["app_path"] as? String }
            ?? rows.min { ($0.string("app_path") ?? "").count < ($1.string("app_path") ?? "").count }
            : rows.first { kind != "app" || $0.string("app_path") == "" }
        guard let row = container else {
            Issue.record("build \(relative) (\(kind)) is not catalogued", sourceLocation: sourceLocation)
            return
        }
        #expect(row.string("source_kind") == kind, "\(relative): source_kind", sourceLocation: sourceLocation)
        #expect(row.string("bundle_id") == build["bundle_id"] as? String, "\(relative): bundle_id",
                sourceLocation: sourceLocation)
        #expect(row.string("short_version") == build["short_version"] as? String, "\(relative): short_version",
                sourceLocation: sourceLocation)
        #expect(row.string("build") == build["build"] as? String, "\(relative): build", sourceLocation: sourceLocation)
        if let uuid = build["profile_uuid"] as? String {
            #expect(row.string("profile_uuid") == uuid.uppercased(), "\(relative): profile_uuid",
                    sourceLocation: sourceLocation)
        }
        // A nested bundle (an extension, a watch app, a system extension) points at its app.
        if let parent = build["parent"] as? String {
            let parents = try db.strings("""
                SELECT p.path AS path FROM builds b JOIN builds p ON p.id = b.parent_build_id
                WHERE b.path = ? AND b.app_path = '' AND b.removed_at IS NULL
                """, [.text(path)])
            #expect(parents == [absolute(parent)], "\(relative): parent", sourceLocation: sourceLocation)
        }
        if kind == "xcarchive", let appPath = build["app_path"] as? String {
            #expect(path + "/" + (row.string("app_path") ?? "") == absolute(appPath), "\(relative): app_path",
                    sourceLocation: sourceLocation)
        }
    }
}
