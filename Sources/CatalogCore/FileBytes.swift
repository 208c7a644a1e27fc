import Foundation

/// Reads whole files with a size cap checked before anything is allocated, so a huge file with a
/// profile's extension costs one `stat`, not gigabytes of memory.
package enum FileBytes {
    package static func read(_ path: String, limit: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw DecodeError(.unreadable, "cannot open: \(String(cString: strerror(errno)))", path: path)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw DecodeError(.unreadable, "cannot stat: \(String(cString: strerror(errno)))", path: path)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw DecodeError(.unreadable, "not a regular file", path: path)
        }
        let size = Int(info.st_size)
        guard size <= limit else {
            throw DecodeError(.tooLarge, "\(size) bytes exceeds the \(limit)-byte limit", path: path)
        }
        // Read up to limit + 1 bytes: a file growing while it is read is caught, not over-read.
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Foundation.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw DecodeError(.unreadable, "read failed: \(String(cString: strerror(errno)))", path: path)
            }
            if count == 0 { break }
            filled += count
            if filled > limit {
                throw DecodeError(.tooLarge, "file grew past the \(limit)-byte limit while read", path: path)
            }
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    package static func isFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Entries of a folder, sorted; empty when it cannot be read.
    package static func children(of path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}
