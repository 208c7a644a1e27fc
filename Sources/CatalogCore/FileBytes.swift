import Foundation

/// Reads whole files with a size cap checked before anything is allocated, so a huge file with a
/// profile's extension costs one `stat`, not gigabytes of memory.
package enum FileBytes {
    /// An open descriptor on a regular file, with the size `fstat` gave when it was opened.
    package struct RegularFile {
        package let descriptor: Int32
        package let size: Int64

        package func close() {
            _ = closeDescriptor(descriptor)
        }
    }

    /// Opens `path` for reading only if it is a regular file — the one way this package opens input.
    ///
    /// `O_NONBLOCK` makes opening a FIFO (or a device) return at once instead of waiting for a writer
    /// that may never come; the descriptor's type is then checked with `fstat` (not a racy `stat` of
    /// the path), and anything but a regular file is refused. On a regular file `O_NONBLOCK` changes
    /// nothing about reads, so it is left set.
    package static func openRegularFile(_ path: String) throws -> RegularFile {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw DecodeError(.unreadable, "cannot open: \(String(cString: strerror(errno)))", path: path)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let message = String(cString: strerror(errno))
            _ = closeDescriptor(fd)
            throw DecodeError(.unreadable, "cannot stat: \(message)", path: path)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            _ = closeDescriptor(fd)
            throw DecodeError(.unreadable, "not a regular file (\(typeName(info.st_mode)))", path: path)
        }
        return RegularFile(descriptor: fd, size: Int64(info.st_size))
    }

    /// The whole of a regular file, at most `limit` bytes.
    package static func read(_ path: String, limit: Int) throws -> [UInt8] {
        let file = try openRegularFile(path)
        defer { file.close() }
        let fd = file.descriptor
        let size = Int(file.size)
        guard size <= limit else {
            throw DecodeError(.tooLarge, "\(size) bytes exceeds the \(limit)-byte limit", path: path)
        }
        // Read up to limit + 1 bytes: a file growing while it is read is caught, not over-read.
        // Into uninitialized storage: zeroing every buffer first was a memset of all the bytes
        // an ingest reads.
        var failure: DecodeError?
        let bytes = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, initialized in
            var filled = 0
            defer { initialized = filled }
            while filled < buffer.count {
                let count = Foundation.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = DecodeError(.unreadable, "read failed: \(String(cString: strerror(errno)))", path: path)
                    return
                }
                if count == 0 { return }
                filled += count
                if filled > limit {
                    failure = DecodeError(.tooLarge, "file grew past the \(limit)-byte limit while read", path: path)
                    return
                }
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// The first `count` bytes of a regular file (fewer when it is shorter): to sniff a format.
    package static func prefix(_ path: String, count: Int) throws -> [UInt8] {
        let file = try openRegularFile(path)
        defer { file.close() }
        var bytes = [UInt8](repeating: 0, count: max(0, min(count, Int(file.size))))
        var filled = 0
        while filled < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                Foundation.read(file.descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw DecodeError(.unreadable, "read failed: \(String(cString: strerror(errno)))", path: path)
            }
            if got == 0 { break }
            filled += got
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
        FolderEntries.read(path)?.entries.map(\.name) ?? []
    }

    private static func typeName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "a FIFO"
        case S_IFDIR: return "a folder"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "not a file"
        }
    }
}

@inline(__always)
private func closeDescriptor(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    return Glibc.close(fd)
    #elseif canImport(Musl)
    return Musl.close(fd)
    #else
    return Darwin.close(fd)
    #endif
}

extension FileBytes {
    /// The file-system path of a `file:` URL; any other scheme is refused as `.unreadable`.
    package static func path(of url: URL) throws -> String {
        guard url.isFileURL else {
            throw DecodeError(.unreadable, "not a file URL (only local files are read)", path: url.absoluteString)
        }
        return url.path
    }
}
