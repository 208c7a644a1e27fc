import Foundation

/// ``BundleFiles`` of a zip (an `.ipa`, an app zip, a zip of dSYMs): its entries by name, folders
/// implied by the names (zip tools do not always write directory entries). Files are read through
/// the archive, a range at a time. Symbolic links stored as `ditto` stores them (a macOS
/// framework's `Versions/Current`) are followed as a folder's are, only to entries inside the zip.
package struct ZipBundleFiles: BundleFiles {
    private let archive: ZipArchive
    private let files: [String: ZipEntry]
    private let folders: [String: [String]]
    /// Whether any entry is a link: most zips (every `.ipa` seen) hold none, and their paths are
    /// then looked up as they are.
    private let hasLinks: Bool

    /// Links followed to reach one path, as a file system bounds them (`MAXSYMLINKS`).
    static let maximumLinks = 32

    package init(_ archive: ZipArchive) {
        self.archive = archive
        var files: [String: ZipEntry] = [:]
        var folders: [String: Set<String>] = [:]
        var hasLinks = false
        for entry in archive.entries where !entry.name.hasPrefix("__MACOSX/") {
            var parts = entry.name.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            guard !parts.isEmpty else { continue }
            if !entry.isDirectory, files[entry.name] == nil {
                files[entry.name] = entry
                hasLinks = hasLinks || entry.isSymbolicLink
            }
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
        self.hasLinks = hasLinks
    }

    package func isFile(_ path: String) -> Bool { entry(path) != nil }

    package func children(of folder: String) -> [String] {
        guard let resolved = resolved(folder) else { return [] }
        return folders[resolved] ?? []
    }

    package func entries(of folder: String) -> [(name: String, kind: FolderEntries.Kind)] {
        guard let resolved = resolved(folder) else { return [] }
        return (folders[resolved] ?? []).map { name in
            guard let entry = files[resolved.isEmpty ? name : resolved + "/" + name] else { return (name, .directory) }
            return (name, entry.isSymbolicLink ? .symlink : .file)
        }
    }

    package func symbolicLinkTarget(_ path: String) -> String? {
        guard hasLinks, let slash = path.lastIndex(of: "/") ?? Optional(path.startIndex),
              let parent = resolved(String(path[..<slash])) else { return nil }
        let name = path[slash...].drop { $0 == "/" }
        guard let entry = files[parent.isEmpty ? String(name) : parent + "/" + name], entry.isSymbolicLink else { return nil }
        return target(of: entry)
    }

    package func read(_ path: String, limit: Int) throws -> [UInt8] {
        guard let entry = entry(path) else { throw DecodeError(.unreadable, "no such entry", path: describe(path)) }
        return try archive.contents(of: entry, limit: limit)
    }

    package func rangeReader(_ path: String) throws -> any RangeReader {
        guard let entry = entry(path) else { throw DecodeError(.unreadable, "no such entry", path: describe(path)) }
        return try archive.rangeReader(of: entry)
    }

    package func isInside(_ path: String) -> Bool { resolved(path) != nil }

    package func rangeReader(listed path: String) throws -> any RangeReader { try rangeReader(path) }

    package func describe(_ path: String) -> String { archive.path + "!" + path }

    /// The file entry at `path` once its links are resolved; nil for a folder, a missing path, or a
    /// link that leads out of the zip, loops, or to nothing.
    private func entry(_ path: String) -> ZipEntry? {
        guard hasLinks else { return files[path] }
        guard let resolved = resolved(path), let entry = files[resolved], !entry.isSymbolicLink else { return nil }
        return entry
    }

    /// `path` with every link in it replaced by its target, as a file system resolves one; nil
    /// when a link is absolute, climbs out of the zip, or more than ``maximumLinks`` are followed.
    private func resolved(_ path: String) -> String? {
        guard hasLinks else { return path }
        var pending = path.split(separator: "/").map(String.init)
        var done: [String] = []
        var links = 0
        while !pending.isEmpty {
            let part = pending.removeFirst()
            if part == "." { continue }
            if part == ".." {
                guard done.popLast() != nil else { return nil }
                continue
            }
            done.append(part)
            guard let entry = files[done.joined(separator: "/")], entry.isSymbolicLink else { continue }
            links += 1
            guard links <= Self.maximumLinks, let target = target(of: entry), !target.hasPrefix("/") else { return nil }
            done.removeLast()
            pending = target.split(separator: "/").map(String.init) + pending
        }
        return done.joined(separator: "/")
    }

    /// A link's target is its entry's contents; one longer than a path can be is no link.
    private func target(of entry: ZipEntry) -> String? {
        guard let bytes = try? archive.contents(of: entry, limit: Int(PATH_MAX)) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
