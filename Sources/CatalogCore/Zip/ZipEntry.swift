/// One file or directory listed in a zip archive's central directory. Names are only names: the
/// reader never extracts anything, so `../x` or `/abs` names are harmless and kept as they are.
package struct ZipEntry: Sendable, Hashable {
    /// The name decoded as UTF-8; invalid bytes become U+FFFD.
    package let name: String
    /// Compression method: 0 stored, 8 deflated (others are listed but cannot be read).
    package let method: UInt16
    package let compressedSize: UInt64
    package let uncompressedSize: UInt64
    package let crc32: UInt32
    /// Offset of the entry's local file header from the start of the file.
    package let localHeaderOffset: UInt64
    /// General-purpose bit flags (bit 0 encrypted, bit 3 data descriptor, bit 11 UTF-8 name).
    package let flags: UInt16
    /// A symbolic link as `ditto` and Info-ZIP store one (a Unix host's mode in the external
    /// attributes says so): its contents are the target, as written.
    package let isSymbolicLink: Bool

    /// The "version made by" host number of Unix (APPNOTE 4.4.2), the only one whose external
    /// attributes carry a file mode.
    static let unixHost: UInt16 = 3

    package init(name: String, method: UInt16, compressedSize: UInt64, uncompressedSize: UInt64,
                 crc32: UInt32, localHeaderOffset: UInt64, flags: UInt16 = 0, isSymbolicLink: Bool = false) {
        self.name = name
        self.method = method
        self.compressedSize = compressedSize
        self.uncompressedSize = uncompressedSize
        self.crc32 = crc32
        self.localHeaderOffset = localHeaderOffset
        self.flags = flags
        self.isSymbolicLink = isSymbolicLink
    }

    /// Directory entries are the ones whose name ends with "/".
    package var isDirectory: Bool { name.hasSuffix("/") }

    /// Whether the entry is encrypted (flag bit 0); its contents cannot be read.
    package var isEncrypted: Bool { flags & 0x1 != 0 }
}
