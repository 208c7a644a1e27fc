import Foundation

/// Where every test target finds its inputs and the built binary: the package's `Fixtures/`, the
/// team's real corpus at `../shared/real-corpus` beside the checkout when present (CI has it), and
/// the `catalog` executable in the build folder.
public enum TestPaths {
    /// The package root, three levels above this file.
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    public static var fixtures: String { packageRoot + "/Fixtures" }

    public static var realCorpus: String? {
        let path = URL(fileURLWithPath: packageRoot).deletingLastPathComponent().path + "/shared/real-corpus"
        return FileManager.default.fileExists(atPath: path + "/expected.json") ? path : nil
    }

    /// An `expected.json` as Foundation objects.
    public static func expected(at path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// The `catalog` executable: `$CATALOG_BIN`, else beside the test bundle in the build folder.
    public static var catalogExecutable: String {
        if let path = ProcessInfo.processInfo.environment["CATALOG_BIN"] { return path }
        var folder = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = folder.appendingPathComponent("catalog").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder.deleteLastPathComponent()
        }
        return Bundle.main.bundleURL.appendingPathComponent("catalog").path
    }
}
