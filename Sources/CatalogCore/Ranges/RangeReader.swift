/// Random access to one input's bytes — a file, bytes in memory, a zip entry — a range at a time,
/// so that a large binary is never read whole. Errors carry no path; the caller adds it.
package protocol RangeReader: AnyObject {
    /// How many bytes the input holds.
    var size: UInt64 { get }

    /// Exactly `count` bytes at `offset`. Callers check the range against ``size`` first; a read
    /// past the end still throws rather than returning fewer bytes.
    func read(at offset: UInt64, count: Int) throws -> [UInt8]
}

extension RangeReader {
    /// Whether `count` bytes at `offset` lie inside the input, without overflow.
    package func contains(offset: UInt64, count: UInt64) -> Bool {
        offset <= size && count <= size - offset
    }

    /// The error every reader throws for a range outside its input.
    func pastTheEnd(_ offset: UInt64, _ count: Int) -> DecodeError {
        DecodeError(.unreadable, "read of \(count) bytes at \(offset) runs past the end (\(size) bytes)",
                    offset: Int(exactly: offset))
    }
}
