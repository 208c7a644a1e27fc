/// A build's files as the binary reader walks them: a folder on disk (`.app`, `.xcarchive`) or an
/// `.ipa`'s entries. Paths are relative to the container and separated by `/`; `""` is the root.
package protocol BundleFiles {
    func isFile(_ path: String) -> Bool
    /// The names directly inside `folder`, sorted; empty when it is no folder.
    func children(of folder: String) -> [String]
    /// Where a symbolic link at `path` points (as written), or nil when it is none.
    func symbolicLinkTarget(_ path: String) -> String?
    /// The whole file, at most `limit` bytes.
    func read(_ path: String, limit: Int) throws -> [UInt8]
    /// Ranges of the file, for a binary that may be large.
    func rangeReader(_ path: String) throws -> any RangeReader
    /// What errors call the file: a path on disk, or `X.ipa!Payload/…`.
    func describe(_ path: String) -> String
}
