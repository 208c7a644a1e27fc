import Foundation

/// Where every test target finds its inputs and the built binary: the package's `Fixtures/`, the
/// team's real corpus at `../shared/real-corpus` beside the checkout when present (CI has it), and
/// the `catalog` executable in the build folder.
///
/// `CATALOG_TEST_NO_REAL_CORPUS=1` hides the real corpus, so one machine can prove the suite passes
/// on a clean clone with nothing beside it (`.ci/run` runs the suite both ways).
public enum TestPaths {
    /// The package root, three levels above this file, under its on-disk spelling (the ingest
    /// stores roots so; a checkout reached through a symlink would otherwise differ).
    public static let packageRoot = onDiskSpelling(URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path)

    /// `realpath(3)` of an existing path (symlinks resolved: on macOS `/var` → `/private/var`), else
    /// the path as given. Not Foundation's `resolvingSymlinksInPath`, which on macOS strips `/private`.
    public static func onDiskSpelling(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    public static var fixtures: String { packageRoot + "/Fixtures" }

    /// The temporary folder under its on-disk spelling, ending in `/`: paths the catalogue stores
    /// under it compare equal to the test's own (on macOS `/var/folders/…` is `/private/var/…`).
    public static var temporary: String { onDiskSpelling(NSTemporaryDirectory()) + "/" }

    /// True when `CATALOG_TEST_NO_REAL_CORPUS` is set to anything but empty or `0`.
    public static var realCorpusHidden: Bool {
        let value = ProcessInfo.processInfo.environment["CATALOG_TEST_NO_REAL_CORPUS"] ?? ""
        return !value.isEmpty && value != "0"
    }

    /// Why tests that need the real corpus are skipped (shown by `swift test`).
    public static let realCorpusAbsent =
        "../shared/real-corpus is absent or hidden by CATALOG_TEST_NO_REAL_CORPUS: real-corpus checks skipped"

    /// `$CATALOG_REAL_CORPUS` when set (a worktree elsewhere than beside `shared/`), else
    /// `../shared/real-corpus`, under its on-disk spelling (a symlinked `shared/` resolved, as the
    /// catalogue stores paths); nil when it has no `expected.json` or `CATALOG_TEST_NO_REAL_CORPUS` hides it.
    public static var realCorpus: String? {
        if realCorpusHidden { return nil }
        let path = ProcessInfo.processInfo.environment["CATALOG_REAL_CORPUS"]
            ?? URL(fileURLWithPath: packageRoot).deletingLastPathComponent().path + "/shared/real-corpus"
        return FileManager.default.fileExists(atPath: path + "/expected.json") ? onDiskSpelling(path) : nil
    }

    /// An `expected.json` as Foundation objects.
    public static func expected(at path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// The `catalog` executable: `$CATALOG_BIN`, else the first of `executableCandidates` that is an
    /// executable file, else the first candidate (so a failure names where it was looked for).
    public static var catalogExecutable: String {
        if let path = ProcessInfo.processInfo.environment["CATALOG_BIN"] { return path }
        let candidates = executableCandidates
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }

    /// Where the build puts `catalog`, nearest first. The test bundle's folder and its parents: on
    /// macOS `Bundle.main` is the toolchain's `xctest` or `swiftpm-testing-helper` (inside Xcode), so
    /// the bundle holding this code is found through a class of its own (`Bundle(for:)`), which is
    /// `.build/<triple>/debug/catalogPackageTests.xctest` there; on Linux both are the test
    /// executable beside `catalog`. Last, `.build/debug` and `.build/release` under the package root
    /// derived from `#filePath` (a custom `--scratch-path` needs `$CATALOG_BIN`).
    public static var executableCandidates: [String] {
        var candidates: [String] = []
        for bundle in [Bundle(for: BundleToken.self).bundleURL, Bundle.main.bundleURL] {
            var folder = bundle
            for _ in 0..<3 {
                candidates.append(folder.appendingPathComponent("catalog").path)
                folder.deleteLastPathComponent()
            }
        }
        candidates += [packageRoot + "/.build/debug/catalog", packageRoot + "/.build/release/catalog"]
        var unique: [String] = []
        for path in candidates where !unique.contains(path) { unique.append(path) }
        return unique
    }

    /// True under a CI service (GitHub Actions, GitLab, Buildkite… all set `CI`): there a missing
    /// `catalog` binary fails the tests that need it instead of skipping them.
    public static var isCI: Bool {
        guard let value = ProcessInfo.processInfo.environment["CI"] else { return false }
        return !value.isEmpty && value.lowercased() != "false" && value != "0"
    }

    /// Set by `.ci/run`, which installs Chromium, zsh and fish: the tests that need one of them fail
    /// when it is missing instead of skipping. Elsewhere (a developer's machine, the GitHub Actions
    /// workflow) they skip with their reason.
    public static var toolsRequired: Bool { ProcessInfo.processInfo.environment["CATALOG_TEST_REQUIRE_TOOLS"] != nil }
}

/// A class defined in the test code, so `Bundle(for:)` finds the bundle the tests were loaded from.
private final class BundleToken {
}
