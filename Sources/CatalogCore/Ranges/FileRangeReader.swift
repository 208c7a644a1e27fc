import Foundation

/// A ``RangeReader`` over a regular file, read with `pread`: only the ranges asked for leave the
/// disk. Opened through ``FileBytes/openRegularFile(_:)`` (a FIFO never blocks and is refused);
/// the descriptor is closed when the reader goes away.
package final class FileRangeReader: RangeReader {
    private let file: FileBytes.RegularFile
    package let size: UInt64

    /// Throws `DecodeError` `.unreadable` naming `path` when it cannot be opened or is no regular file.
    package init(path: String) throws {
        file = try FileBytes.openRegularFile(path)
        size = UInt64(max(0, file.size))
    }

    deinit {
        file.close()
    }

    package func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        guard count >= 0, contains(offset: offset, count: UInt64(count)) else { throw pastTheEnd(offset, count) }
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return pread(file.descriptor, base + done, count - done, off_t(offset) + off_t(done))
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw DecodeError(.unreadable, "read failed: \(String(cString: strerror(errno)))")
            }
            if got == 0 {
                throw DecodeError(.unreadable, "the file ends early (it shrank while being read)",
                                  offset: Int(exactly: offset + UInt64(done)))
            }
            done += got
        }
        return buffer
    }
}
