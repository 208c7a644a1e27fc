/// One CodeDirectory of a code signature (`cs_blobs.h` `CS_CodeDirectory`): what was signed, for
/// whom, and with which hash. A signature carries one per hash type (SHA-1 in slot 0 and SHA-256
/// in slot 0x1000 for binaries that also support old systems).
public struct CodeDirectory: Sendable, Equatable {
    /// `CS_HASHTYPE_*`.
    public struct HashType: Sendable, Equatable, Hashable, RawRepresentable {
        public var rawValue: UInt8

        public init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        public static let sha1 = HashType(rawValue: 1)
        public static let sha256 = HashType(rawValue: 2)
        public static let sha256Truncated = HashType(rawValue: 3)
        public static let sha384 = HashType(rawValue: 4)

        /// The digest it names (SHA-256 for the truncated form); nil for an unknown type.
        var algorithm: HashAlgorithm? {
            switch rawValue {
            case 1: return .sha1
            case 2, 3: return .sha256
            case 4: return .sha384
            default: return nil
            }
        }

        /// `sha1`, `sha256`, `sha256-truncated`, `sha384`, or `hash type N`.
        public var name: String {
            switch rawValue {
            case 1: return "sha1"
            case 2: return "sha256"
            case 3: return "sha256-truncated"
            case 4: return "sha384"
            default: return "hash type \(rawValue)"
            }
        }
    }

    /// The SuperBlob slot it was found in: 0, or 0x1000 and up for alternates.
    public var slot: UInt32
    public var version: UInt32
    /// `CS_ADHOC` 0x2, `CS_RUNTIME` 0x10000 (hardened runtime), `CS_LINKER_SIGNED` 0x20000, …
    public var flags: UInt32
    /// The signing identifier (usually the bundle id).
    public var identifier: String
    /// The team identifier (version 0x20200 and later); nil when absent or ad hoc.
    public var teamID: String?
    public var hashType: HashType
    /// Bytes per page hash.
    public var hashSize: UInt8
    /// Pages of 2^`pageSizeLog2` bytes are hashed (0: the whole file is one page).
    public var pageSizeLog2: UInt8
    public var codeSlotCount: UInt32
    public var specialSlotCount: UInt32
    /// Bytes of the slice the page hashes cover (the signature's offset).
    public var codeLimit: UInt64
    /// The hash of the whole CodeDirectory blob with its own hash type, upper-case hex; nil for a
    /// hash type this reader does not compute (SHA-384).
    public var hash: String?
    /// The special slots the CodeDirectory binds (a hash that is not all zero), by their number
    /// counted from 1 (1 the Info.plist, 2 the requirements, 3 `CodeResources`, 5 and 7 the
    /// entitlements blobs): what the bundle's files must hash to.
    public var boundSpecialSlots: [Int: [UInt8]] = [:]
    /// Where the code slots start in the blob.
    package var hashOffset: UInt32 = 0

    public init(slot: UInt32, version: UInt32, flags: UInt32, identifier: String, teamID: String?,
                hashType: HashType, hashSize: UInt8, pageSizeLog2: UInt8, codeSlotCount: UInt32,
                specialSlotCount: UInt32, codeLimit: UInt64, hash: String?) {
        self.slot = slot
        self.version = version
        self.flags = flags
        self.identifier = identifier
        self.teamID = teamID
        self.hashType = hashType
        self.hashSize = hashSize
        self.pageSizeLog2 = pageSizeLog2
        self.codeSlotCount = codeSlotCount
        self.specialSlotCount = specialSlotCount
        self.codeLimit = codeLimit
        self.hash = hash
    }

    /// The first 20 bytes of ``hash`` (40 hex digits): this CodeDirectory's cdhash.
    public var cdhash: String? { hash.map { String($0.prefix(40)) } }

    /// `CS_ADHOC`: signed without an identity.
    public var isAdHoc: Bool { flags & 0x2 != 0 }

    /// `CS_LINKER_SIGNED`: the ad-hoc signature `ld` writes.
    public var isLinkerSigned: Bool { flags & 0x2_0000 != 0 }

    /// The digest of `bytes` with this CodeDirectory's hash type, cut to its hash size; nil for a
    /// hash type this reader does not compute (SHA-384).
    package func slotHash<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> ArraySlice<UInt8>? {
        switch hashType {
        case .sha1: return Digest.sha1(bytes).prefix(Int(hashSize))
        case .sha256, .sha256Truncated: return Digest.sha256(bytes).prefix(Int(hashSize))
        default: return hashType.algorithm.map { $0.digest(Array(bytes)).prefix(Int(hashSize)) }
        }
    }

    /// Whether special slot `number` is bound and `bytes` hash to it; nil when the slot is not bound
    /// or the hash type is not computed.
    package func specialSlot<Bytes: Collection<UInt8>>(_ number: Int, matches bytes: Bytes) -> Bool? {
        guard let expected = boundSpecialSlots[number], let actual = slotHash(bytes) else { return nil }
        return actual.elementsEqual(expected)
    }
}
