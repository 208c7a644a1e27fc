/// A dSYM's DWARF binary in an `.xcarchive` (`dSYMs/X.dSYM/Contents/Resources/DWARF/X`): a Mach-O
/// whose slices carry the UUIDs of the binary it describes, as crash reports name them.
public struct DebugSymbols: Sendable, Equatable {
    /// Inside the archive: `dSYMs/X.app.dSYM/Contents/Resources/DWARF/X`.
    public var path: String
    public var binary: MachOFile?
    public var error: DecodeError?

    public init(path: String, binary: MachOFile?, error: DecodeError? = nil) {
        self.path = path
        self.binary = binary
        self.error = error
    }
}
