import Foundation

/// Which file a path names on disk: its device and inode. Two roots with the same identity are one
/// folder, whatever their spelling (a symlink, a bind mount, another case on APFS).
package struct FileIdentity: Sendable, Hashable {
    package var device: UInt64
    package var inode: UInt64

    package init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}

/// How the ingest learns the on-disk spelling and the identity of a root. Tests substitute a double
/// that folds case, as APFS and HFS+ do; `SystemPathResolver` asks the file system.
package protocol PathResolving: Sendable {
    /// The path as the file system spells it (symlinks resolved, each name as stored), or nil when
    /// it cannot be resolved (a missing root: the walk reports that).
    func onDiskSpelling(of path: String) -> String?
    /// The device and inode the path leads to (following symlinks), or nil when it cannot be stat'd.
    func identity(of path: String) -> FileIdentity?
}

/// The real file system. On Darwin the spelling comes from `fcntl(F_GETPATH)`, which returns each
/// name as stored: on a case-insensitive APFS or HFS+ volume `~/library/mobiledevice` opens the same
/// folder as `~/Library/MobileDevice`, and on APFS (normalisation-insensitive) an NFC name opens an
/// NFD one; `realpath` is the fallback. On Linux `realpath` (file systems there are case-sensitive
/// unless casefolding was asked for per folder; a test double covers folding).
package struct SystemPathResolver: PathResolving {
    package init() {}

    package func onDiskSpelling(of path: String) -> String? {
        #if canImport(Darwin)
        // O_EVTONLY needs no read permission and O_NONBLOCK keeps a FIFO root from blocking the open.
        let fd = open(path, O_EVTONLY | O_NONBLOCK | O_CLOEXEC)
        if fd >= 0 {
            defer { close(fd) }
            var buffer = [CChar](repeating: 0, count: Int(MAXPATHLEN))
            let status = buffer.withUnsafeMutableBufferPointer { fcntl(fd, F_GETPATH, $0.baseAddress!) }
            if status != -1 { return String(cString: buffer) }
        }
        #endif
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    package func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        // dev_t is Int32 on Darwin and UInt64 on Linux.
        return FileIdentity(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(info.st_ino))
    }
}

/// The roots of a run, each under its on-disk spelling and only once.
package struct ResolvedRoot: Sendable, Equatable {
    /// The spelling stored in the catalogue and walked.
    package var path: String
    /// Other spellings given for the same folder this run (as typed, or an earlier duplicate root).
    /// Rows an older version stored under them are retired once the canonical walk is done.
    package var aliases: [String]
}

package enum RootResolver {
    /// Resolves each root to its on-disk spelling and merges roots that are the same file (same
    /// device and inode): with Xcode 16's `UserData/Provisioning Profiles` and the old
    /// `MobileDevice/Provisioning Profiles` symlinked to it, the folder is walked once, not twice.
    /// A root that cannot be resolved stays as given, so the walk reports it.
    package static func resolve(_ roots: [String], using resolver: any PathResolving) -> [ResolvedRoot] {
        var resolved: [ResolvedRoot] = []
        var indexByIdentity: [FileIdentity: Int] = [:]
        for root in roots {
            let trimmed = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
            let spelling = resolver.onDiskSpelling(of: trimmed) ?? trimmed
            let alias = spelling == trimmed ? [] : [trimmed]
            if let identity = resolver.identity(of: spelling) {
                if let index = indexByIdentity[identity] {
                    for other in alias + [spelling] where other != resolved[index].path
                        && !resolved[index].aliases.contains(other) {
                        resolved[index].aliases.append(other)
                    }
                    continue
                }
                indexByIdentity[identity] = resolved.count
            } else if let index = resolved.firstIndex(where: { $0.path == spelling }) {
                for other in alias where !resolved[index].aliases.contains(other) { resolved[index].aliases.append(other) }
                continue
            }
            resolved.append(ResolvedRoot(path: spelling, aliases: alias))
        }
        return resolved
    }
}
