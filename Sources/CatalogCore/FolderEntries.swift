import Foundation

/// A folder's entries as `readdir` gives them: names sorted, each with the type the directory
/// record holds, so listing a folder costs no `stat` per entry. The ingest's tree walk and the
/// bundle readers both list folders this way.
package struct FolderEntries: Sendable {
    package enum Kind: Sendable { case file, directory, symlink, other, unknown }

    /// The entries other than `.` and `..`, sorted by name.
    package var entries: [(name: String, kind: Kind)]
    /// How many entries were left out because their names are not valid UTF-8: a lossy repair
    /// would name a different file, and the catalogue keys paths as text.
    package var invalidNames: Int

    /// Lists `folder`; nil when it cannot be opened, with `errno` saying why.
    package static func read(_ folder: String) -> FolderEntries? {
        guard let dir = opendir(folder) else { return nil }
        defer { closedir(dir) }
        var listing = FolderEntries(entries: [], invalidNames: 0)
        while let entry = readdir(dir) {
            let bytes = nameBytes(of: entry)
            // Decoding repairs invalid UTF-8; a name whose bytes change in the round trip is not
            // valid UTF-8. (String(validating:) would say so directly but needs macOS 15.)
            let name = String(decoding: bytes, as: UTF8.self)
            guard name.utf8.elementsEqual(bytes) else { listing.invalidNames += 1; continue }
            if name == "." || name == ".." { continue }
            let kind: Kind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): kind = .file
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK): kind = .symlink
            case Int32(DT_UNKNOWN): kind = .unknown
            default: kind = .other
            }
            listing.entries.append((name, kind))
        }
        listing.entries.sort { $0.name < $1.name }
        return listing
    }

    /// Where `d_name` starts in a `dirent`. It is the last field on Linux and Darwin alike.
    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)
        ?? MemoryLayout<dirent>.size - MemoryLayout.size(ofValue: dirent().d_name)

    /// The name of a `readdir` record, read in place. The record is only as long as its name:
    /// copying the declared `d_name` field (1,024 bytes on Darwin, 256 on Linux), as
    /// `withUnsafeBytes(of: entry.pointee.d_name)` does, reads past it (AddressSanitizer on macOS
    /// reports a heap over-read). Darwin gives the length in `d_namlen`; Linux has no such field, so
    /// the name runs to its NUL.
    private static func nameBytes(of entry: UnsafeMutablePointer<dirent>) -> UnsafeRawBufferPointer {
        let start = UnsafeRawPointer(entry) + nameOffset
        #if canImport(Darwin)
        let length = Int(entry.pointee.d_namlen)
        #else
        let length = strlen(start.assumingMemoryBound(to: CChar.self))
        #endif
        return UnsafeRawBufferPointer(start: start, count: length)
    }
}
