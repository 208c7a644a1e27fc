import CatalogCore
import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// dSYMs kept outside archives (migration 0022) are recorded, found by UUID, seen again and marked
/// removed the same way on SQLite and PostgreSQL.
@Suite(.timeLimit(.minutes(5))) struct DebugSymbolsStoreTests {
    static let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01

    static func scenario(_ catalogue: Catalogue) throws {
        let folder = TestPaths.fixtures + "/dsyms/Loose/Demo.app.dSYM"
        let bundle = try LooseDebugSymbols.read(folder: folder)
        #expect(bundle.bundleID == "com.example.demo" && bundle.shortVersion == "3.1" && bundle.build == "310")
        let uuid = try #require(bundle.files.first?.binary?.slices.first?.uuid)
        let zipped = try #require(try LooseDebugSymbols.read(zip: TestPaths.fixtures + "/dsyms/appDsyms.zip"))
        #expect(zipped.map(\.bundleID) == ["com.example.app", "com.example.demo"], "in the order of their names (UUID.dSYM)")
        #expect(try LooseDebugSymbols.read(zip: TestPaths.fixtures + "/dsyms/sources.zip") == nil)

        let writer = catalogue.writer
        try catalogue.writeRun {
            try writer.recordDebugSymbols(path: folder, [bundle], at: start)
            try writer.recordDebugSymbols(path: "/x/appDsyms.zip", zipped, at: start)
        }
        let found = try catalogue.queries.debugSymbols(uuid: uuid)
        #expect(found.map(\.dwarfPath) == [folder + "/Contents/Resources/DWARF/Demo",
                                           "/x/appDsyms.zip!\(uuid).dSYM/Contents/Resources/DWARF/Demo"])
        #expect(found.allSatisfy { $0.arch == "arm64" && $0.removedAt == nil && $0.firstSeen == start })
        // Gone from its folder: marked removed, kept.
        let later = start.addingTimeInterval(86_400)
        try catalogue.writeRun { _ = try writer.markBuildRemoved(path: "/x/appDsyms.zip", at: later) }
        let after = try catalogue.queries.debugSymbols(uuid: uuid)
        #expect(after.first?.removedAt == nil && after.last?.removedAt == later, "present first, then the removed one")
        // Read again: present, first seen kept.
        try catalogue.writeRun { try writer.recordDebugSymbols(path: "/x/appDsyms.zip", zipped, at: later) }
        #expect(try catalogue.queries.debugSymbols(uuid: uuid).allSatisfy { $0.removedAt == nil && $0.firstSeen == start })
    }

    @Test func sqlite() throws {
        let folder = try Scratch()
        try Self.scenario(try Catalogue.openForWriting(path: folder.file("catalog.sqlite")))
    }

    @Test(.enabled(if: PostgresTestDatabase.enabled, PostgresTestDatabase.skipReason))
    func postgreSQL() throws {
        let database = try PostgresTestDatabase()
        defer { database.drop() }
        try Self.scenario(try Catalogue.openForWriting(path: database.url, host: "build-01", busyTimeout: 10))
    }
}
