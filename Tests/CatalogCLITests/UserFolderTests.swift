import Foundation
import Testing
@testable import CatalogCLI

/// Where the catalogue and the notification state live when no option names them: the platform's
/// folders for this tool, one rule for both.
@Suite struct UserFolderTests {
    static func defaultCatalogue(_ environment: [String: String]) throws -> String {
        let arguments = try ParsedArguments.parse([], options: [CatalogueLocation.option.spec], positionals: [])
        return CatalogueLocation.path(arguments, environment)
    }

    @Test func theCatalogueAndTheNotificationStateFollowThePlatformsFolders() throws {
        #if os(macOS)
        let home = ["HOME": "/Users/ci", "XDG_DATA_HOME": "/x/data", "XDG_STATE_HOME": "/x/state"]
        #expect(try Self.defaultCatalogue(home) == "/Users/ci/Library/Application Support/catalog/catalog.sqlite")
        #expect(NotifyState.defaultPath(home) == "/Users/ci/Library/Application Support/catalog/notified.json")
        #else
        let plain = ["HOME": "/home/ci"]
        #expect(try Self.defaultCatalogue(plain) == "/home/ci/.local/share/catalog/catalog.sqlite")
        #expect(NotifyState.defaultPath(plain) == "/home/ci/.local/state/catalog/notified.json")
        let xdg = ["HOME": "/home/ci", "XDG_DATA_HOME": "/x/data", "XDG_STATE_HOME": "/x/state"]
        #expect(try Self.defaultCatalogue(xdg) == "/x/data/catalog/catalog.sqlite")
        #expect(NotifyState.defaultPath(xdg) == "/x/state/catalog/notified.json")
        // The specification ignores a relative one (and an empty one is relative).
        let relative = ["HOME": "/home/ci", "XDG_DATA_HOME": "data", "XDG_STATE_HOME": ""]
        #expect(try Self.defaultCatalogue(relative) == "/home/ci/.local/share/catalog/catalog.sqlite")
        #expect(NotifyState.defaultPath(relative) == "/home/ci/.local/state/catalog/notified.json")
        #endif
        // CATALOG_DB still comes first.
        #expect(try Self.defaultCatalogue(["HOME": "/home/ci", "CATALOG_DB": "/srv/catalog.sqlite"]) == "/srv/catalog.sqlite")
    }
}
