import Foundation

/// ``BundleFiles`` of a folder on disk. Symbolic links are followed when files are opened (a macOS
/// framework's `Versions/Current`), but only to files inside the folder: a link out of the bundle
/// is refused, not read. Only regular files are ever read.
package struct FolderBundleFiles: BundleFiles {
    package let root: String

    package init(root: String) {
        self.root = root
    }

    private func full(_ path: String) -> String { path.isEmpty ? root : root + "/" + path }

    package func isFile(_ path: String) -> Bool { FileBytes.isFile(full(path)) }

    package func children(of folder: String) -> [String] { FileBytes.children(of: full(folder)) }

    package func entries(of folder: String) -> [(name: String, kind: FolderEntries.Kind)] {
        let base = full(folder)
        return (FolderEntries.read(base)?.entries ?? []).map { entry in
            guard entry.kind == .unknown else { return entry }
            // Some file systems leave the type out of the directory record: then ask for it.
            var status = stat()
            guard lstat(base + "/" + entry.name, &status) == 0 else { return entry }
            switch status.st_mode & S_IFMT {
            case S_IFREG: return (entry.name, .file)
            case S_IFDIR: return (entry.name, .directory)
            case S_IFLNK: return (entry.name, .symlink)
            default: return (entry.name, .other)
            }
        }
    }

    package func symbolicLinkTarget(_ path: String) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: full(path))
    }

    package func read(_ path: String, limit: Int) throws -> [UInt8] {
        try FileBytes.read(try inside(path), limit: limit)
    }

    package func rangeReader(_ path: String) throws -> any RangeReader { try FileRangeReader(path: try inside(path)) }

    /// Kept for speed (cold ingest, bench.py integrity_extra): a seal's files are found by listing
    /// the bundle, which already saw that no component is a link.
    package func rangeReader(listed path: String) throws -> any RangeReader {
        guard !path.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            return try rangeReader(path)
        }
        return try FileRangeReader(path: full(path))
    }

    package func isInside(_ path: String) -> Bool { path.isEmpty || (try? inside(path)) != nil }

    /// The file's path once its links are resolved, when that is still inside the folder.
    private func inside(_ path: String) throws -> String {
        let file = full(path)
        // Kept for speed (cold ingest, bench.py): a path of plain names none of which is a link
        // cannot leave the folder, and a few lstat calls cost less than resolving every component.
        if !hasLinkOrDots(path) { return file }
        guard let real = Self.resolved(file) else {
            throw DecodeError(.unreadable, "cannot resolve: \(String(cString: strerror(errno)))", path: file)
        }
        // The folder's own links are resolved only here: most bundles have none inside, and
        // resolving a path reads every component of it.
        let resolvedRoot = Self.resolved(root) ?? root
        guard real.hasPrefix(resolvedRoot + "/") else {
            throw DecodeError(.unreadable, "a symbolic link out of the bundle (to \(real)) is not followed", path: file)
        }
        return real
    }

    /// Whether a component of `path` (below the root) is a symbolic link, `.` or `..`, or cannot be
    /// examined: then only resolving the whole path says where it leads.
    private func hasLinkOrDots(_ path: String) -> Bool {
        var prefix = root
        for component in path.split(separator: "/", omittingEmptySubsequences: false) {
            if component.isEmpty || component == "." || component == ".." { return true }
            prefix += "/" + component
            var status = stat()
            guard lstat(prefix, &status) == 0 else { return true }
            if (status.st_mode & S_IFMT) == S_IFLNK { return true }
        }
        return false
    }

    private static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    package func describe(_ path: String) -> String { full(path) }
}
