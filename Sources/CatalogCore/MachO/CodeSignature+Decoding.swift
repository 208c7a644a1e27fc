import Foundation

extension CodeSignature {
    static let superBlobMagic: UInt32 = 0xFADE_0CC0
    static let entitlementsMagic: UInt32 = 0xFADE_7171
    static let derEntitlementsMagic: UInt32 = 0xFADE_7172
    static let cmsWrapperMagic: UInt32 = 0xFADE_0B01

    /// SuperBlob slots (`CSSLOT_*`).
    static let codeDirectorySlot: UInt32 = 0
    static let entitlementsSlot: UInt32 = 5
    static let derEntitlementsSlot: UInt32 = 7
    static let alternateCodeDirectorySlots: ClosedRange<UInt32> = 0x1000...0x1004
    static let cmsSlot: UInt32 = 0x10000

    /// Decodes an embedded-signature SuperBlob (the bytes `LC_CODE_SIGNATURE` points at). Offsets in
    /// errors are from the start of `bytes`.
    ///
    /// ```
    /// struct SuperBlob { uint32 magic = 0xFADE0CC0, length, count; struct { uint32 type, offset; } index[count]; }
    /// struct Blob { uint32 magic, length; uint8 data[length - 8]; }      // every field big-endian
    /// ```
    ///
    /// A slot listed twice is refused: which of two CodeDirectories or entitlement blobs counts
    /// must never depend on the reader.
    ///
    /// - Throws: ``DecodeError`` `.malformedMachO` for the SuperBlob, its blobs and entitlements,
    ///   `.malformedEnvelope` for the CMS blob.
    package init(superBlob bytes: [UInt8]) throws {
        let view = ByteReader(bytes)
        func fail(_ reason: String, at offset: Int) -> DecodeError {
            DecodeError(.malformedMachO, "code signature: \(reason)", offset: offset)
        }
        guard let magic = try? view.uint32(at: 0, .bigEndian), let length = try? view.uint32(at: 4, .bigEndian),
              let count = try? view.uint32(at: 8, .bigEndian) else {
            throw fail("\(bytes.count) bytes is too short for a SuperBlob header", at: 0)
        }
        guard magic == Self.superBlobMagic else {
            throw fail("magic 0x\(String(magic, radix: 16)) is not an embedded signature's (0xfade0cc0)", at: 0)
        }
        guard length >= 12, length <= bytes.count else {
            throw fail("the SuperBlob claims \(length) bytes; \(bytes.count) were given", at: 4)
        }
        let indexEnd = 12 + UInt64(count) * 8
        guard indexEnd <= UInt64(length) else {
            throw fail("an index of \(count) blobs does not fit in \(length) bytes", at: 8)
        }
        let superBlob = ByteReader(bytes[..<Int(length)])
        var blobs: [UInt32: (offset: Int, magic: UInt32, body: ArraySlice<UInt8>)] = [:]
        var order: [UInt32] = []
        for index in 0..<Int(count) {
            guard let type = try? superBlob.uint32(at: 12 + index * 8, .bigEndian),
                  let offset = try? superBlob.uint32(at: 16 + index * 8, .bigEndian) else {
                throw fail("index entry \(index) is truncated", at: 12 + index * 8)
            }
            guard UInt64(offset) >= indexEnd, let blobMagic = try? superBlob.uint32(at: Int(offset), .bigEndian),
                  let blobLength = try? superBlob.uint32(at: Int(offset) + 4, .bigEndian) else {
                throw fail("blob \(index) (slot 0x\(String(type, radix: 16))) at \(offset) lies outside the SuperBlob",
                           at: 16 + index * 8)
            }
            guard blobLength >= 8, let body = try? superBlob.bytes(at: Int(offset), count: Int(blobLength)) else {
                throw fail("blob \(index) (slot 0x\(String(type, radix: 16))) of \(blobLength) bytes at \(offset) "
                           + "runs past the SuperBlob's \(length)", at: Int(offset) + 4)
            }
            guard blobs[type] == nil else {
                throw fail("slot 0x\(String(type, radix: 16)) appears twice", at: 12 + index * 8)
            }
            blobs[type] = (Int(offset), blobMagic, body)
            order.append(type)
        }

        func expect(_ slot: UInt32, _ magic: UInt32, _ what: String) throws -> (offset: Int, data: ArraySlice<UInt8>)? {
            guard let blob = blobs[slot] else { return nil }
            guard blob.magic == magic else {
                throw fail("the \(what) blob has magic 0x\(String(blob.magic, radix: 16)), not 0x\(String(magic, radix: 16))",
                           at: blob.offset)
            }
            return (blob.offset, blob.body.dropFirst(8))
        }

        var directories: [CodeDirectory] = []
        for slot in order where slot == Self.codeDirectorySlot || Self.alternateCodeDirectorySlots.contains(slot) {
            guard let blob = blobs[slot] else { continue }
            guard blob.magic == CodeDirectory.magic else {
                throw fail("slot 0x\(String(slot, radix: 16)) holds magic 0x\(String(blob.magic, radix: 16)), not a CodeDirectory",
                           at: blob.offset)
            }
            do {
                directories.append(try CodeDirectory(blob: blob.body, slot: slot))
            } catch var error as DecodeError {
                error.offset = error.offset.map { $0 + blob.offset }
                throw error
            }
        }
        directories.sort { $0.slot < $1.slot }
        guard !directories.isEmpty else { throw fail("no CodeDirectory", at: 0) }

        var entitlements: PlistDictionary?
        if let blob = try expect(Self.entitlementsSlot, Self.entitlementsMagic, "entitlements") {
            do {
                entitlements = try PropertyListReader.parseDictionary(Array(blob.data), "entitlements").dictionary
            } catch var error as DecodeError {
                error.reason = "code signature: entitlements: \(error.reason)"
                error.offset = (error.offset ?? 0) + blob.offset + 8
                throw error
            }
        }
        var derEntitlements: PlistDictionary?
        if let blob = try expect(Self.derEntitlementsSlot, Self.derEntitlementsMagic, "DER entitlements") {
            do {
                derEntitlements = try DERProfilePayload.entitlements(Array(blob.data), errorKind: .malformedMachO)
            } catch var error as DecodeError {
                error.reason = "code signature: DER entitlements: \(error.reason)"
                error.offset = (error.offset ?? 0) + blob.offset + 8
                throw error
            }
        }
        var certificates: [DeveloperCertificate] = []
        var signer: DeveloperCertificate?
        var signingTime: Date?
        if let blob = try expect(Self.cmsSlot, Self.cmsWrapperMagic, "CMS signature"), !blob.data.isEmpty {
            do {
                (certificates, signer, signingTime) = try Self.signer(of: Array(blob.data))
            } catch var error as DecodeError {
                error.reason = "code signature: CMS blob: \(error.reason)"
                error.offset = (error.offset ?? 0) + blob.offset + 8
                throw error
            }
        }

        let preferred = [CodeDirectory.HashType.sha256, .sha256Truncated, .sha1]
            .lazy.compactMap { type in directories.first { $0.hashType == type } }.first
        self.init(codeDirectories: directories, cdhash: preferred?.cdhash, entitlements: entitlements,
                  derEntitlements: derEntitlements, certificates: certificates, signingCertificate: signer,
                  signingTime: signingTime)
    }

    /// The certificates of a CMS blob and the one its (first) signer names. No signer: ad hoc.
    private static func signer(of bytes: [UInt8]) throws
        -> (certificates: [DeveloperCertificate], signer: DeveloperCertificate?, time: Date?) {
        let cms = try CMSDetachedSignedData(bytes: bytes)
        // A certificate that does not parse cannot be the signer's; the others are still listed.
        let parsed = cms.certificates.compactMap { der in
            (try? DeveloperCertificate(der: der)).map { (der: der, facts: $0) }
        }
        guard let first = cms.signers.first else { return (parsed.map(\.facts), nil, nil) }
        let match = parsed.first { candidate in
            guard let chain = ChainCache.shared.certificate(candidate.der) else { return false }
            switch first.identifier {
            case .issuerAndSerial(let issuer, let serial): return chain.issuer == issuer && chain.serial == serial
            case .subjectKeyIdentifier(let key): return chain.subjectKeyIdentifier == key
            }
        }
        guard let match else {
            throw DecodeError(.malformedEnvelope, "the signer's certificate is not among the \(cms.certificates.count) "
                              + "certificates of the signature (or does not decode)")
        }
        return (parsed.map(\.facts), match.facts, first.signingTime)
    }
}
