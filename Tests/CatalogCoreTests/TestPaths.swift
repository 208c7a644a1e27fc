import Foundation

/// Where the tests find their inputs: the package's `Fixtures/` and, when present (CI has it),
/// the team's real corpus at `../shared/real-corpus` beside the checkout.
enum TestPaths {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    static var fixtures: String { packageRoot + "/Fixtures" }

    static var realCorpus: String? {
        let path = URL(fileURLWithPath: packageRoot).deletingLastPathComponent().path + "/shared/real-corpus"
        return FileManager.default.fileExists(atPath: path + "/expected.json") ? path : nil
    }

    static func expected(at path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}
