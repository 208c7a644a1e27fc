import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// libpq is loaded at run time; when it cannot be, the error says what to install.
@Suite(.timeLimit(.minutes(10))) struct LibPQLoaderTests {
    @Test func aMissingLibraryNamesWhatToInstall() throws {
        let result = LibPQ.load(candidates: ["/nonexistent/libpq-catalog-test.so.5", "libpq-catalog-test.so.5"])
        guard case .failure(let error) = result else {
            Issue.record("a nonexistent library loaded")
            return
        }
        guard case .libraryNotFound(let tried, _) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(tried == ["/nonexistent/libpq-catalog-test.so.5", "libpq-catalog-test.so.5"])
        let message = error.description
        #expect(message.contains("libpq"))
        #expect(message.contains("apt-get install libpq5"))
        #expect(message.contains("brew install libpq"))
        #expect(message.contains("CATALOG_LIBPQ"))
        #expect(message.contains("libpq-catalog-test.so.5"))
    }

    @Test func aLibraryWithoutLibpqFunctionsIsRefusedByName() throws {
        // libz (linked by CatalogCore) opens fine but is not libpq.
        #if canImport(Darwin)
        let other = "/usr/lib/libz.dylib"
        #else
        let other = "libz.so.1"
        #endif
        guard case .failure(let error) = LibPQ.load(candidates: [other]) else {
            Issue.record("\(other) was taken for libpq")
            return
        }
        #expect(error == .missingFunction(name: "PQconnectdbParams", library: other))
        #expect(error.description.contains("apt-get install libpq5"))
    }

    @Test func theOverrideVariableIsTheOnlyCandidateWhenSet() {
        #expect(LibPQ.candidates(environment: ["CATALOG_LIBPQ": "/opt/pg/lib/libpq.so.5"]) == ["/opt/pg/lib/libpq.so.5"])
        let defaults = LibPQ.candidates(environment: [:])
        #if canImport(Darwin)
        #expect(defaults.first == "libpq.5.dylib")
        #expect(defaults.contains("/opt/homebrew/opt/libpq/lib/libpq.5.dylib"))
        #else
        #expect(defaults.first == "libpq.so.5")
        #endif
        #expect(LibPQ.candidates(environment: ["CATALOG_LIBPQ": ""]) == defaults)
    }

    @Test(.enabled(if: LibPQ.isInstalledForTests || TestPaths.toolsRequired,
                   "libpq is not installed on this machine: loading it is not tested"))
    func theInstalledLibraryLoads() throws {
        let library = try LibPQ.loaded()
        #expect(library.libraryVersion() >= 90_100)
    }
}

extension LibPQ {
    /// Whether this machine has libpq (the tests that connect need it and a server).
    static var isInstalledForTests: Bool { (try? shared.get()) != nil }
}
