/// A build's files as the binary reader walks them: a folder on disk (`.app`, `.xcarchive`) or an
/// `.ipa`'s entries. Paths are relative to the container and separated by `/`; `""` is the root.
package protocol BundleFiles {
    func isFile(_ path: String) -> Bool
    /// The names directly inside `folder`, sorted; empty when it is no folder.
    func children(of folder: String) -> [String]
    /// The same, each with what it is (file, folder, symbolic link), from one listing: walking a
    /// whole bundle costs no call per file.
    func entries(of folder: String) -> [(name: String, kind: FolderEntries.Kind)]
    /// Where a symbolic link at `path` points (as written), or nil when it is none.
    func symbolicLinkTarget(_ path: String) -> String?
    /// The whole file, at most `limit` bytes.
    func read(_ path: String, limit: Int) throws -> [UInt8]
    /// Ranges of the file, for a binary that may be large.
    func rangeReader(_ path: String) throws -> any RangeReader
    /// ``rangeReader(_:)`` for a file ``entries(of:)`` listed as a file, in folders it listed as
    /// folders all the way from the root: no link can lead such a path out of the bundle, so it is
    /// opened without looking at each component again.
    func rangeReader(listed path: String) throws -> any RangeReader
    /// Whether `path` (a folder or a file) stays inside the container once its links are resolved.
    func isInside(_ path: String) -> Bool
    /// What errors call the file: a path on disk, or `X.ipa!Payload/…`.
    func describe(_ path: String) -> String
}

extension BundleFiles {
    /// The whole of a file ``entries(of:)`` listed (see ``rangeReader(listed:)``), at most `limit` bytes.
    func read(listed path: String, limit: Int) throws -> [UInt8] {
        let reader = try rangeReader(listed: path)
        guard reader.size <= UInt64(limit) else {
            throw DecodeError(.tooLarge, "\(reader.size) bytes is more than the \(limit) read", path: describe(path))
        }
        return try reader.read(at: 0, count: Int(reader.size))
    }
}
