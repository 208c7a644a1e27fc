import CatalogCore
import Foundation

/// The folders Xcode keeps profiles and archives in, read when a command is given no PATH.
enum XcodeFolders {
    /// Installed profiles: Xcode 16's `UserData/Provisioning Profiles` and the older
    /// `MobileDevice/Provisioning Profiles`.
    static func profiles(home: String) -> [String] {
        [home + "/Library/MobileDevice/Provisioning Profiles",
         home + "/Library/Developer/Xcode/UserData/Provisioning Profiles"]
    }

    static func archives(home: String) -> String { home + "/Library/Developer/Xcode/Archives" }

    /// Those of `folders` that exist, or a usage error naming what was looked for.
    static func existing(_ folders: [String], described: String) throws -> [String] {
        let found = folders.filter { FileBytes.isDirectory($0) }
        guard !found.isEmpty else { throw UsageError(message: "no PATH given and none of \(described) exists") }
        return found
    }

    static func home(_ context: CommandContext) -> String { context.environment["HOME"] ?? NSHomeDirectory() }
}
