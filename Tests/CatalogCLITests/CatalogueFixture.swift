import CatalogTestSupport
import Testing

/// A test's own catalogue file, and the `catalog` commands run against it.
protocol CatalogueFixture {
    var db: String { get }
}

extension CatalogueFixture {
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CatalogProcess.Result {
        try CatalogProcess.run(arguments + ["--db", db], environment: environment)
    }

    /// Runs a command that prints a JSON array and returns its objects.
    func records(_ arguments: [String]) throws -> [[String: Any]] {
        let result = try run(arguments + ["--json"])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try CatalogProcess.json(result.stdout) as? [[String: Any]] ?? []
    }
}
