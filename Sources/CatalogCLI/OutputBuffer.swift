import Foundation

/// Buffers writes to a file handle and flushes in large chunks; stdout goes to pipes in scripts.
struct OutputBuffer {
    private let handle: FileHandle
    private var pending: [UInt8] = []

    /// `widensPipe`: standard output, which listings stream through; not standard error, whose
    /// few lines need no room (a larger pipe counts against the user's pipe quota while it lasts).
    init(_ handle: FileHandle, widensPipe: Bool = false) {
        self.handle = handle
        if widensPipe { Self.widenPipe(handle.fileDescriptor) }
    }

    /// Asks for a larger pipe when `descriptor` is one (Linux; elsewhere, and when refused, the pipe
    /// stays as it is): with the default size a listing fills the pipe with each flush and waits for
    /// the reader to empty it, flush by flush. The size asked is Linux's default `pipe-max-size`,
    /// which any user may ask for.
    /// Kept for speed: JSON output throughput (bench.py).
    private static func widenPipe(_ descriptor: Int32) {
        #if os(Linux)
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFIFO else { return }
        // F_SETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 7, linux/fcntl.h), which Glibc's module does not export.
        let setPipeSize: Int32 = 1024 + 7
        _ = fcntl(descriptor, setPipeSize, Int32(1 << 20))
        #endif
    }

    mutating func write(_ text: String) {
        pending.append(contentsOf: text.utf8)
        if pending.count >= 1 << 16 { flush() }
    }

    mutating func write(_ bytes: [UInt8]) {
        pending.append(contentsOf: bytes)
        if pending.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !pending.isEmpty else { return }
        pending.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(handle.fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 { if errno == EINTR { continue }; break }
                offset += written
            }
        }
        pending.removeAll(keepingCapacity: true)
    }
}
