import CatalogCore
import Foundation

/// Walks folders and reports the candidates in them: profiles, `.app`/`.appex` bundles (and the
/// extensions and watch apps nested in them), `.xcarchive` folders, `.ipa` files and stray
/// `Info.plist` files. It does not descend into a bundle it reports, never follows a symlink to a
/// folder (so loops and a link to `/` cost nothing), and reports unreadable folders as problems.
package struct TreeWalker {
    package struct Problem: Sendable, Equatable {
        package var path: String
        package var message: String
        /// The folder at `path` was not (fully) listed: what the catalogue holds under it is unknown,
        /// not gone.
        package var contentsUnknown = false
    }

    /// `--exclude` patterns (see `ExcludePattern`): with a slash, relative to the walked root.
    package var excludes: [String] {
        didSet { patterns = excludes.map(ExcludePattern.init) }
    }
    private var patterns: [ExcludePattern]
    /// The root being walked, for the paths exclude patterns match against.
    private var root = ""
    package private(set) var problems: [Problem] = []
    package private(set) var skippedSymlinks = 0
    /// AppleDouble sidecars (`._name.mobileprovision`, written beside each file by macOS on exFAT,
    /// FAT, NFS and SMB volumes to hold its extended attributes) of files that would be candidates:
    /// not profiles or archives, so skipped rather than reported as broken.
    package private(set) var skippedAppleDouble = 0

    package init(excludes: [String] = []) {
        self.excludes = excludes
        self.patterns = excludes.map(ExcludePattern.init)
    }

    /// Calls `visit` for each candidate under `root`, in a stable (sorted) order.
    package mutating func walk(_ root: String, _ visit: (Candidate) throws -> Void) rethrows {
        let root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        self.root = root
        var info = stat()
        guard stat(root, &info) == 0 else {
            problems.append(Problem(path: root, message: "cannot read: \(String(cString: strerror(errno)))",
                                    contentsUnknown: true))
            return
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            if let candidate = bundleCandidate(root, parent: nil) {
                try visit(candidate)
                try visitNested(in: candidate, visit)
            } else {
                try walkFolder(root, depth: 0, visit)
            }
        } else if let candidate = fileCandidate(root, name: (root as NSString).lastPathComponent) {
            // A file given as the root that cannot be opened fails the root, as a folder would.
            let fd = open(root, O_RDONLY | O_NONBLOCK)
            guard fd >= 0 else {
                problems.append(Problem(path: root, message: "cannot read: \(String(cString: strerror(errno)))",
                                        contentsUnknown: true))
                return
            }
            close(fd)
            try visit(candidate)
        }
    }

    private mutating func walkFolder(_ folder: String, depth: Int, _ visit: (Candidate) throws -> Void) rethrows {
        guard depth < 64 else {
            problems.append(Problem(path: folder, message: "folder nesting deeper than 64 levels; not descended",
                                    contentsUnknown: true))
            return
        }
        guard let entries = listFolder(folder) else { return }
        for (name, type) in entries {
            let path = folder == "/" ? "/" + name : folder + "/" + name
            if isExcluded(path, name: name, type: type) { continue }
            var kind = type
            if kind == .unknown || kind == .symlink {
                var info = stat()
                if lstat(path, &info) != 0 { continue }  // vanished mid-walk
                let isLink = (info.st_mode & S_IFMT) == S_IFLNK
                if isLink {
                    if stat(path, &info) != 0 { continue }  // dangling link
                    if (info.st_mode & S_IFMT) == S_IFDIR { skippedSymlinks += 1; continue }
                }
                kind = (info.st_mode & S_IFMT) == S_IFDIR ? .directory : (info.st_mode & S_IFMT) == S_IFREG ? .file : .other
            }
            switch kind {
            case .directory:
                if let candidate = bundleCandidate(path, parent: nil) {
                    try visit(candidate)
                    try visitNested(in: candidate, visit)
                } else {
                    try walkFolder(path, depth: depth + 1, visit)
                }
            case .file:
                if name.hasPrefix("._") {
                    if fileCandidate(path, name: String(name.dropFirst(2))) != nil { skippedAppleDouble += 1 }
                    continue
                }
                if let candidate = fileCandidate(path, name: name) { try visit(candidate) }
            default:
                continue
            }
        }
    }

    /// The bundles inside an app that are builds of their own, with the app as parent: the folders
    /// ``NestedBuilds`` lists (extensions, watch apps, App Clips; in a macOS app its `Contents/`
    /// plug-ins, ExtensionKit extensions, login items and system extensions), read as the bundles of
    /// a zipped app are. Archives and other bundles are not entered. The app folder is listed once
    /// and only the subfolders it has are opened (an unchanged tree is mostly this).
    private mutating func visitNested(in candidate: Candidate, _ visit: (Candidate) throws -> Void) rethrows {
        guard candidate.kind == .app, let top = listFolder(candidate.path, reportErrors: false) else { return }
        let here = top.map(\.name).filter(Self.nestedFirsts.contains)
        guard !here.isEmpty else { return }
        var inContents: [String] = []
        if here.contains("Contents") {
            inContents = (listFolder(candidate.path + "/Contents", reportErrors: false) ?? []).map(\.name).filter(Self.nestedSeconds.contains)
        }
        var folders: [String] = []
        for nested in Self.nestedFolders where here.contains(nested.first) && nested.second.map(inContents.contains) ?? true {
            folders.append(candidate.path + "/" + nested.path)
        }
        for folder in folders {
            guard let entries = listFolder(folder, reportErrors: false) else { continue }
            for (name, type) in entries where type == .directory || type == .unknown {
                guard NestedBuilds.suffixes.contains(where: { name.hasSuffix($0) }),
                      AppBundleReader.layout(of: folder + "/" + name) != nil else { continue }
                let nested = Candidate(kind: .app, path: folder + "/" + name, parentPath: candidate.path)
                try visit(nested)
                try visitNested(in: nested, visit)
            }
        }
    }

    /// ``NestedBuilds/folders`` split once: an app's folder, the one inside it (macOS's
    /// `Contents/X`), and the whole path.
    /// Split once for speed: bench.py's unchanged re-ingest (`unchanged_over_find`).
    private static let nestedFolders = NestedBuilds.folders.map { folder in
        let parts = folder.split(separator: "/").map(String.init)
        return (first: parts[0], second: parts.count > 1 ? parts[1] : nil, path: folder)
    }
    private static let nestedFirsts = Set(nestedFolders.map(\.first))
    private static let nestedSeconds = Set(nestedFolders.compactMap(\.second))

    private func bundleCandidate(_ path: String, parent: String?) -> Candidate? {
        if path.hasSuffix(".xcarchive") { return Candidate(kind: .xcarchive, path: path, parentPath: parent) }
        if path.hasSuffix(".dSYM") { return Candidate(kind: .dsym, path: path, parentPath: parent) }
        // A folder named like a bundle but holding no Info.plist is walked as an ordinary folder.
        if path.hasSuffix(".app") || path.hasSuffix(".appex"), AppBundleReader.layout(of: path) != nil {
            return Candidate(kind: .app, path: path, parentPath: parent)
        }
        return nil
    }

    private func fileCandidate(_ path: String, name: String) -> Candidate? {
        if name.hasSuffix(".mobileprovision") || name.hasSuffix(".provisionprofile") {
            return Candidate(kind: .profile, path: path)
        }
        if name.hasSuffix(".ipa") { return Candidate(kind: .ipa, path: path) }
        if name.hasSuffix(".zip") { return Candidate(kind: .zip, path: path) }
        if name == "Info.plist" { return Candidate(kind: .infoPlist, path: path) }
        return nil
    }

    private func isExcluded(_ path: String, name: String, type: EntryType) -> Bool {
        guard !patterns.isEmpty else { return false }
        let start = path.utf8.index(path.utf8.startIndex, offsetBy: root == "/" ? 1 : root.utf8.count + 1)
        let relative = path[start...]
        let isDirectory = {
            if type != .unknown && type != .symlink { return type == .directory }
            var info = stat()
            return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
        }
        return patterns.contains { $0.matches(path: path, relative: relative, name: name, isDirectory: isDirectory) }
    }

    private typealias EntryType = FolderEntries.Kind

    /// The folder's entries sorted by name, with the type `readdir` reports (no stat per entry).
    private mutating func listFolder(_ folder: String, reportErrors: Bool = true) -> [(name: String, kind: EntryType)]? {
        guard let listing = FolderEntries.read(folder) else {
            if reportErrors {
                problems.append(Problem(path: folder, message: "cannot read folder: \(String(cString: strerror(errno)))",
                                        contentsUnknown: true))
            }
            return nil
        }
        for _ in 0..<listing.invalidNames {
            problems.append(Problem(path: folder, message: "skipped an entry whose name is not valid UTF-8"))
        }
        return listing.entries
    }
}
