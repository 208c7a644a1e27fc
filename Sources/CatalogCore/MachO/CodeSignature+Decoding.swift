import Foundation

extension CodeSignature {
    static let superBlobMagic: UInt32 = 0xFADE_0CC0
    static let entitlementsMagic: UInt32 = 0xFADE_7171
    static let derEntitlementsMagic: UInt32 = 0xFADE_7172
    static let cmsWrapperMagic: UInt32 = 0xFADE_0B01

    /// SuperBlob slots (`CSSLOT_*`).
    static let requirementsMagic: UInt32 = 0xFADE_0C01
    static let codeDirectorySlot: UInt32 = 0
    static let requirementsSlot: UInt32 = 2
    static let applicationSlot: UInt32 = 4
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
    /// must never depend on the reader. Only the SuperBlob's own structure and a missing primary
    /// CodeDirectory throw; every other part that cannot be read is a ``findings`` entry.
    ///
    /// - Parameter trust: what the CMS signer must chain to; nil leaves the CMS signature unverified.
    /// - Throws: ``DecodeError`` `.malformedMachO`.
    package init(superBlob bytes: [UInt8], trust: TrustAnchors? = nil) throws {
        self = try Self.decode(superBlob: bytes, trust: trust).signature
    }

    /// ``init(superBlob:trust:)``, with each decoded CodeDirectory's blob (in ``codeDirectories``
    /// order) for the page checks, which need its code slots.
    package static func decode(superBlob bytes: [UInt8], trust: TrustAnchors?) throws
        -> (signature: CodeSignature, directoryBlobs: [ArraySlice<UInt8>]) {
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
        var blobs: [UInt32: (offset: Int, magic: UInt32, blob: ArraySlice<UInt8>)] = [:]
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
            guard blobLength >= 8, let blob = try? superBlob.bytes(at: Int(offset), count: Int(blobLength)) else {
                throw fail("blob \(index) (slot 0x\(String(type, radix: 16))) of \(blobLength) bytes at \(offset) "
                           + "runs past the SuperBlob's \(length)", at: Int(offset) + 4)
            }
            guard blobs[type] == nil else {
                throw fail("slot 0x\(String(type, radix: 16)) appears twice", at: 12 + index * 8)
            }
            blobs[type] = (Int(offset), blobMagic, blob)
            order.append(type)
        }

        var findings: [SignatureFinding] = []
        func unreadable(_ part: String, _ reason: String, at offset: Int? = nil) {
            findings.append(SignatureFinding(.signatureUnreadable, "\(part): \(reason)"
                                             + (offset.map { " (signature offset \($0))" } ?? "")))
        }
        /// The blob in `slot` when its magic is `magic`; a blob with another magic is unreadable.
        func blob(_ slot: UInt32, _ magic: UInt32, _ what: String) -> (offset: Int, blob: ArraySlice<UInt8>)? {
            guard let found = blobs[slot] else { return nil }
            guard found.magic == magic else {
                unreadable(what, "magic 0x\(String(found.magic, radix: 16)), not 0x\(String(magic, radix: 16))", at: found.offset)
                return nil
            }
            return (found.offset, found.blob)
        }

        var directories: [(directory: CodeDirectory, blob: ArraySlice<UInt8>)] = []
        for slot in order.sorted() where slot == Self.codeDirectorySlot || Self.alternateCodeDirectorySlots.contains(slot) {
            let what = "CodeDirectory in slot 0x\(String(slot, radix: 16))"
            guard let found = blob(slot, CodeDirectory.magic, what) else { continue }
            do {
                directories.append((try CodeDirectory(blob: found.blob, slot: slot), found.blob))
            } catch let error as DecodeError {
                unreadable(what, error.reason, at: error.offset.map { $0 + found.offset })
            } catch {
                unreadable(what, "\(error)")
            }
        }
        guard let primary = directories.first else {
            throw fail(findings.first?.message ?? "no CodeDirectory", at: 0)
        }
        if primary.directory.slot != Self.codeDirectorySlot {
            unreadable("CodeDirectory in slot 0", "absent or unreadable; the alternates alone were read")
        }

        // The blobs the CodeDirectories bind by special slot: each must hash to it in every one.
        let bound: [(number: Int, slot: UInt32, magic: UInt32, what: String, payloadOnly: Bool, code: SigningProblem.Code)] = [
            (2, Self.requirementsSlot, Self.requirementsMagic, "requirements", false, .signatureInvalid),
            (4, Self.applicationSlot, Self.cmsWrapperMagic, "application-specific blob", true, .signatureInvalid),
            (5, Self.entitlementsSlot, Self.entitlementsMagic, "entitlements", false, .entitlementsModified),
            (7, Self.derEntitlementsSlot, Self.derEntitlementsMagic, "DER entitlements", false, .entitlementsModified),
        ]
        for item in bound {
            let present = blobs[item.slot]
            // One finding per blob and kind of fault, naming every CodeDirectory that sees it.
            var unbound: [String] = [], absent: [String] = [], differ: [String] = []
            for (directory, _) in directories {
                let name = directory.hashType.name
                guard directory.boundSpecialSlots[item.number] != nil else {
                    if present != nil, item.number != 4 { unbound.append(name) }
                    continue
                }
                guard let present else {
                    absent.append(name)
                    continue
                }
                let hashed = item.payloadOnly ? present.blob.dropFirst(8) : present.blob
                if directory.specialSlot(item.number, matches: hashed) == false { differ.append(name) }
            }
            func slot(_ names: [String]) -> String {
                "special slot -\(item.number) of the \(names.joined(separator: " and ")) CodeDirector\(names.count == 1 ? "y" : "ies")"
            }
            if !unbound.isEmpty { findings.append(SignatureFinding(item.code, "the \(item.what) blob is not bound by \(slot(unbound))")) }
            if !absent.isEmpty {
                findings.append(SignatureFinding(item.code, "\(slot(absent)) binds a \(item.what) blob the signature does not carry"))
            }
            if !differ.isEmpty { findings.append(SignatureFinding(item.code, "the \(item.what) blob does not match \(slot(differ))")) }
        }

        var entitlements: PlistDictionary?
        if let found = blob(Self.entitlementsSlot, Self.entitlementsMagic, "entitlements") {
            do {
                entitlements = try PropertyListReader.parseDictionary(Array(found.blob.dropFirst(8)), "entitlements").dictionary
            } catch let error as DecodeError {
                unreadable("entitlements", error.reason, at: found.offset + 8 + (error.offset ?? 0))
            } catch {
                unreadable("entitlements", "\(error)")
            }
        }
        var derEntitlements: PlistDictionary?
        if let found = blob(Self.derEntitlementsSlot, Self.derEntitlementsMagic, "DER entitlements") {
            do {
                derEntitlements = try DERProfilePayload.entitlements(Array(found.blob.dropFirst(8)), errorKind: .malformedMachO)
            } catch let error as DecodeError {
                unreadable("DER entitlements", error.reason, at: found.offset + 8 + (error.offset ?? 0))
            } catch {
                unreadable("DER entitlements", "\(error)")
            }
        }
        if let entitlements, let derEntitlements, !DERProfileCheck.same(.dictionary(entitlements), .dictionary(derEntitlements)) {
            let keys = Set(entitlements.keys).union(derEntitlements.keys).sorted().filter { key in
                guard let xml = entitlements[key], let der = derEntitlements[key] else { return true }
                return !DERProfileCheck.same(xml, der)
            }
            findings.append(SignatureFinding(.entitlementsMismatch, "the XML and DER entitlements differ in "
                                             + keys.prefix(8).joined(separator: ", ") + (keys.count > 8 ? ", …" : "")))
        }

        var certificates: [DeveloperCertificate] = []
        var signer: DeveloperCertificate?
        var signingTime: Date?
        if let found = blob(Self.cmsSlot, Self.cmsWrapperMagic, "CMS signature"), found.blob.count > 8 {
            let cms = Array(found.blob.dropFirst(8))
            do {
                (certificates, signer, signingTime) = try Self.signer(of: cms)
            } catch let error as DecodeError {
                unreadable("CMS signature", error.reason, at: found.offset + 8 + (error.offset ?? 0))
            } catch {
                unreadable("CMS signature", "\(error)")
            }
            if let trust, signer != nil {
                findings += CodeSignatureVerifier.findings(cms: cms, directories: directories, trust: trust)
            }
        }

        let decoded = directories.map(\.directory)
        let preferred = [CodeDirectory.HashType.sha256, .sha256Truncated, .sha1]
            .lazy.compactMap { type in decoded.first { $0.hashType == type } }.first
        var signature = CodeSignature(codeDirectories: decoded, cdhash: preferred?.cdhash, entitlements: entitlements,
                                      derEntitlements: derEntitlements, certificates: certificates, signingCertificate: signer,
                                      signingTime: signingTime)
        signature.findings = findings
        return (signature, directories.map(\.blob))
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
