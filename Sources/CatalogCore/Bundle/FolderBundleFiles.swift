import Foundation

/// ``BundleFiles`` of a folder on disk. Symbolic links are followed when files are opened (a macOS
/// framework's `Versions/Current`); only regular files are ever read.
package struct FolderBundleFiles: BundleFiles {
    package let root: String

    package init(root: String) {
        self.root = root
    }

    private func full(_ path: String) -> String { path.isEmpty ? root : root + "/" + path }

    package func isFile(_ path: String) -> Bool { FileBytes.isFile(full(path)) }

    package func children(of folder: String) -> [String] { FileBytes.children(of: full(folder)) }

    package func symbolicLinkTarget(_ path: String) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: full(path))
    }

    package func read(_ path: String, limit: Int) throws -> [UInt8] { try FileBytes.read(full(path), limit: limit) }

    package func rangeReader(_ path: String) throws -> any RangeReader { try FileRangeReader(path: full(path)) }

    package func describe(_ path: String) -> String { full(path) }
}
