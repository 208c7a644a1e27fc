extension CodeDirectory {
    static let magic: UInt32 = 0xFADE_0C02
    /// magic … spare2: the fields every version has.
    static let baseHeaderSize = 44
    static let teamOffsetVersion: UInt32 = 0x2_0200
    static let codeLimit64Version: UInt32 = 0x2_0300

    /// Decodes the CodeDirectory blob `blob` (magic and length included) found in `slot`; offsets
    /// in errors are from the start of `blob`.
    ///
    /// ```
    /// struct CS_CodeDirectory {          // big-endian
    ///   uint32 magic, length, version, flags, hashOffset, identOffset, nSpecialSlots, nCodeSlots, codeLimit;
    ///   uint8 hashSize, hashType, platform, pageSize; uint32 spare2;
    ///   uint32 scatterOffset;            // version >= 0x20100
    ///   uint32 teamOffset;               // version >= 0x20200
    ///   uint32 spare3; uint64 codeLimit64;   // version >= 0x20300
    ///   … }
    /// ```
    init(blob: ArraySlice<UInt8>, slot: UInt32) throws {
        let view = ByteReader(blob)
        func fail(_ reason: String, at offset: Int) -> DecodeError {
            DecodeError(.malformedMachO, "CodeDirectory in slot 0x\(String(slot, radix: 16)): \(reason)", offset: offset)
        }
        guard blob.count >= Self.baseHeaderSize, let version = try? view.uint32(at: 8, .bigEndian),
              let flags = try? view.uint32(at: 12, .bigEndian), let hashOffset = try? view.uint32(at: 16, .bigEndian),
              let identOffset = try? view.uint32(at: 20, .bigEndian), let specialSlots = try? view.uint32(at: 24, .bigEndian),
              let codeSlots = try? view.uint32(at: 28, .bigEndian), let codeLimit32 = try? view.uint32(at: 32, .bigEndian),
              let hashSize = try? view.uint8(at: 36), let hashType = try? view.uint8(at: 37),
              let pageSize = try? view.uint8(at: 39) else {
            throw fail("\(blob.count) bytes is too short for its header", at: 0)
        }
        guard let identifier = try? view.cString(at: Int(identOffset)) else {
            throw fail("the identifier at \(identOffset) is outside the blob or not NUL-terminated", at: 20)
        }
        var teamID: String?
        if version >= Self.teamOffsetVersion, let teamOffset = try? view.uint32(at: 48, .bigEndian), teamOffset != 0 {
            guard let team = try? view.cString(at: Int(teamOffset)) else {
                throw fail("the team identifier at \(teamOffset) is outside the blob or not NUL-terminated", at: 48)
            }
            teamID = team
        }
        // The hash slots: nSpecialSlots before hashOffset, nCodeSlots from it, all inside the blob.
        let size = UInt64(hashSize)
        guard UInt64(specialSlots) * size <= UInt64(hashOffset),
              UInt64(hashOffset) + UInt64(codeSlots) * size <= UInt64(blob.count) else {
            throw fail("\(specialSlots) special and \(codeSlots) code slots of \(hashSize) bytes at \(hashOffset) "
                       + "do not fit in \(blob.count) bytes", at: 16)
        }
        var codeLimit = UInt64(codeLimit32)
        if version >= Self.codeLimit64Version, let limit64 = try? view.uint64(at: 56, .bigEndian), limit64 != 0 { codeLimit = limit64 }

        let type = HashType(rawValue: hashType)
        let hash: String?
        switch type {
        case .sha1: hash = Digest.hex(Digest.sha1(blob))
        case .sha256, .sha256Truncated: hash = Digest.hex(Digest.sha256(blob))
        default: hash = nil
        }
        self.init(slot: slot, version: version, flags: flags, identifier: identifier, teamID: teamID, hashType: type,
                  hashSize: hashSize, pageSizeLog2: pageSize, codeSlotCount: codeSlots, specialSlotCount: specialSlots,
                  codeLimit: codeLimit, hash: hash)
        self.hashOffset = hashOffset
        // Special slot n sits n hashes before the code slots; all zero means "not bound".
        for number in stride(from: 1, through: Int(min(specialSlots, 64)), by: 1) where hashSize > 0 {
            let start = Int(hashOffset) - number * Int(hashSize)
            guard let value = try? view.bytes(at: start, count: Int(hashSize)), value.contains(where: { $0 != 0 }) else { continue }
            boundSpecialSlots[number] = Array(value)
        }
    }
}
