/// ``BundleFiles`` of an `.ipa`: its entries by name, folders implied by the names (zip tools do
/// not always write directory entries). Files are read through the archive, a range at a time.
package struct ZipBundleFiles: BundleFiles {
    private let archive: ZipArchive
    private let files: [String: ZipEntry]
    private let folders: [String: [String]]

    package init(_ archive: ZipArchive) {
        self.archive = archive
        var files: [String: ZipEntry] = [:]
        var folders: [String: Set<String>] = [:]
        for entry in archive.entries where !entry.name.hasPrefix("__MACOSX/") {
            var parts = entry.name.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            guard !parts.isEmpty else { continue }
            if !entry.isDirectory, files[entry.name] == nil { files[entry.name] = entry }
            var folder = ""
            let last = parts.removeLast()
            for part in parts {
                folders[folder, default: []].insert(part)
                folder = folder.isEmpty ? part : folder + "/" + part
            }
            folders[folder, default: []].insert(last)
        }
        self.files = files
        self.folders = folders.mapValues { $0.sorted() }
    }

    package func isFile(_ path: String) -> Bool { files[path] != nil }

    package func children(of folder: String) -> [String] { folders[folder] ?? [] }

    package func entries(of folder: String) -> [(name: String, kind: FolderEntries.Kind)] {
        children(of: folder).map { name in
            let path = folder.isEmpty ? name : folder + "/" + name
            return (name, files[path] != nil ? .file : .directory)
        }
    }

    package func symbolicLinkTarget(_ path: String) -> String? { nil }

    package func read(_ path: String, limit: Int) throws -> [UInt8] {
        guard let entry = files[path] else { throw DecodeError(.unreadable, "no such entry", path: describe(path)) }
        return try archive.contents(of: entry, limit: limit)
    }

    package func rangeReader(_ path: String) throws -> any RangeReader {
        guard let entry = files[path] else { throw DecodeError(.unreadable, "no such entry", path: describe(path)) }
        return try archive.rangeReader(of: entry)
    }

    package func isInside(_ path: String) -> Bool { true }

    package func rangeReader(listed path: String) throws -> any RangeReader { try rangeReader(path) }

    package func describe(_ path: String) -> String { archive.path + "!" + path }
}
