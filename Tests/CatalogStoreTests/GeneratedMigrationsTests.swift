import Foundation
import Testing
@testable import CatalogStore

/// `Migrations+Generated.swift` must match `Migrations/*.sql`; regenerate with
/// `Scripts/generate-migrations.sh`.
@Suite(.timeLimit(.minutes(10))) struct GeneratedMigrationsTests {
    /// Tests/CatalogStoreTests/<this file> → the package root.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theGeneratedFileIsWhatTheScriptProduces() throws {
        let script = Self.packageRoot.appendingPathComponent("Scripts/generate-migrations.sh").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [script, "--stdout"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let produced = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)

        let generated = Self.packageRoot.appendingPathComponent("Sources/CatalogStore/Migration/Migrations+Generated.swift")
        let committed = try Data(contentsOf: generated)
        #expect(String(decoding: committed, as: UTF8.self) == String(decoding: produced, as: UTF8.self),
                "Migrations+Generated.swift is stale: run Scripts/generate-migrations.sh")
    }

    /// SQLite's `Migrations/` and PostgreSQL's `Migrations/postgresql/` (issue 16).
    @Test(arguments: ["Migrations", "Migrations/postgresql"])
    func theCompiledMigrationsMatchTheSQLFiles(folderName: String) throws {
        let compiled = folderName == "Migrations" ? Migration.all : Migration.postgreSQL
        let folder = Self.packageRoot.appendingPathComponent(folderName)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        #expect(files.count == compiled.count)
        for (file, migration) in zip(files, compiled) {
            let base = String(file.dropLast(4))
            #expect(Int(base.prefix(4)) == migration.id)
            #expect(String(base.dropFirst(5)) == migration.name)
            var sql = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            if sql.hasSuffix("\n") { sql.removeLast() }
            #expect(migration.sql == sql, "\(file) differs from its compiled copy")
        }
    }

    @Test func sqliteMigrationIdsHaveNoGaps() {
        #expect(Migration.all.map(\.id) == Array(1...Migration.all.count), "ids are 1, 2, 3, … without gaps")
    }
}
