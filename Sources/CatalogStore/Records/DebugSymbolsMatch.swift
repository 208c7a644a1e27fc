import Foundation

/// A dSYM kept outside an archive (a `.dSYM` folder or a zip) with a slice of the UUID looked up.
package struct DebugSymbolsMatch: Sendable, Equatable {
    /// The `.dSYM` folder or the zip.
    package var path: String
    /// The DWARF file below the folder, or the zip's entry.
    package var member: String
    package var isZip: Bool
    package var bundleID: String?
    package var shortVersion: String?
    package var build: String?
    package var arch: String?
    package var uuid: String
    package var host: String?
    package var firstSeen: Date?
    package var lastSeen: Date?
    package var removedAt: Date?

    /// Where the DWARF file is, as people and tools name it: the folder's file, or `X.zip!entry`
    /// (as an `.ipa`'s members are named).
    package var dwarfPath: String { isZip ? path + "!" + member : path + "/" + member }
}
