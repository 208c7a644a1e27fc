/// One architecture's binary inside a ``MachOFile``: its header and the load commands release
/// tools care about.
public struct MachOSlice: Sendable, Equatable {
    /// `cputype` and `cpusubtype` as in the header (`<mach/machine.h>`).
    public var cpuType: UInt32
    public var cpuSubtype: UInt32
    /// `arm64`, `arm64e`, `x86_64`, `armv7`, `armv7s`, `arm64_32`, `i386`, …
    public var architecture: String
    /// A 64-bit header (`MH_MAGIC_64`).
    public var is64Bit: Bool
    /// The slice's own byte order (big-endian for PowerPC; little-endian everywhere Apple ships today).
    public var isBigEndian: Bool
    /// `filetype`: 2 an executable, 6 a dylib, 8 a bundle, 0xA a dSYM's debug-symbols file, …
    public var fileType: UInt32
    /// Where the slice lies in the file (0 and the file's size for a thin binary).
    public var offset: UInt64
    public var size: UInt64
    /// `LC_UUID`, upper case with dashes (`6D254A2F-0A5E-3FAF-8E04-99D099B16B6C`), as crash reports
    /// and `dwarfdump --uuid` print it.
    public var uuid: String?
    /// From `LC_BUILD_VERSION`, else from `LC_VERSION_MIN_*`.
    public var platform: MachOPlatform?
    /// The deployment target and SDK, as `16.0` or `13.2.1`.
    public var minimumOS: String?
    public var sdk: String?
    /// `LC_CODE_SIGNATURE`'s `dataoff` and `datasize`, from the start of the slice; nil when unsigned.
    public var codeSignatureOffset: UInt32?
    public var codeSignatureSize: UInt32?
    /// The signature, decoded; nil when the slice is unsigned or the signature could not be read.
    public var codeSignature: CodeSignature?
    /// Why the signature `LC_CODE_SIGNATURE` points at could not be read.
    public var codeSignatureError: DecodeError?
    /// The `__TEXT` segment's address (`vmaddr`): where the image expects to load, so an address in
    /// a crash report maps into it (a dSYM's DWARF) as `textAddress + (address − load address)`.
    public var textAddress: UInt64?

    public init(cpuType: UInt32, cpuSubtype: UInt32, is64Bit: Bool, isBigEndian: Bool = false, fileType: UInt32,
                offset: UInt64, size: UInt64, uuid: String? = nil, platform: MachOPlatform? = nil,
                minimumOS: String? = nil, sdk: String? = nil, codeSignatureOffset: UInt32? = nil,
                codeSignatureSize: UInt32? = nil, codeSignature: CodeSignature? = nil,
                codeSignatureError: DecodeError? = nil) {
        self.cpuType = cpuType
        self.cpuSubtype = cpuSubtype
        self.architecture = MachOArchitecture.name(cpuType: cpuType, cpuSubtype: cpuSubtype)
        self.is64Bit = is64Bit
        self.isBigEndian = isBigEndian
        self.fileType = fileType
        self.offset = offset
        self.size = size
        self.uuid = uuid
        self.platform = platform
        self.minimumOS = minimumOS
        self.sdk = sdk
        self.codeSignatureOffset = codeSignatureOffset
        self.codeSignatureSize = codeSignatureSize
        self.codeSignature = codeSignature
        self.codeSignatureError = codeSignatureError
    }

    /// `MH_EXECUTE`, `MH_DYLIB`, `MH_BUNDLE`, `MH_DSYM`.
    public static let executeFileType: UInt32 = 0x2
    public static let dylibFileType: UInt32 = 0x6
    public static let bundleFileType: UInt32 = 0x8
    public static let debugSymbolsFileType: UInt32 = 0xA

    /// Whether the slice has `LC_CODE_SIGNATURE` (readable or not).
    public var isSigned: Bool { codeSignatureOffset != nil }
}
