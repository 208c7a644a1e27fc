import Foundation

/// Buffers writes to a file handle and flushes in large chunks; stdout goes to pipes in scripts.
struct OutputBuffer {
    private let handle: FileHandle
    private var pending: [UInt8] = []

    init(_ handle: FileHandle) { self.handle = handle }

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
