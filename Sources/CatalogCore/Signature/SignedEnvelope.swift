/// A CMS SignedData read for verification: what `CMSSignedData` keeps (content, certificates)
/// plus the signers. A separate, additive parse, so the decoder's envelope type stays as it is.
struct SignedEnvelope: Sendable {
    let contentType: String
    let content: [UInt8]
    let certificates: [[UInt8]]
    let signers: [CMSSignerInfo]
    /// Bytes after the outermost element, which openssl also ignores (they are not signed).
    let trailingBytes: Int

    init(bytes: [UInt8]) throws {
        var input = bytes
        var trailing = 0
        let reader: BERReader
        do {
            reader = try BERReader(bytes: input, errorKind: .malformedEnvelope)
        } catch let error as DecodeError where error.reason.contains("trailing bytes") && error.offset != nil {
            let end = error.offset!
            trailing = input.count - end
            input = Array(input[..<end])
            reader = try BERReader(bytes: input, errorKind: .malformedEnvelope)
        }
        trailingBytes = trailing
        let signedData = try reader.sequence(reader.root, "ContentInfo") { info in
            let type = try reader.objectIdentifier(try info.read(.objectIdentifier, "contentType"), "contentType")
            guard type == CMSSignedData.signedDataOID else {
                throw reader.error("content type \(type) is not SignedData", at: reader.root)
            }
            return try reader.explicit(try info.read(.contextSpecific(0), "content"), 0, "content")
        }
        var parts = (type: "", content: [UInt8](), certificates: [[UInt8]](), signers: [CMSSignerInfo]())
        try reader.sequence(signedData, "SignedData") { fields in
            _ = try fields.read(.integer, "SignedData.version")
            _ = try fields.read(.set, "SignedData.digestAlgorithms")
            try reader.sequence(try fields.read(.sequence, "encapContentInfo"), "EncapsulatedContentInfo") { encap in
                parts.type = try reader.objectIdentifier(try encap.read(.objectIdentifier, "eContentType"), "eContentType")
                guard let wrapper = encap.readOptional(.contextSpecific(0)) else {
                    throw reader.error("eContent is missing (detached signature)", at: signedData)
                }
                let octets = try reader.explicit(wrapper, 0, "eContent")
                guard octets.tag == .octetString else { throw reader.error("eContent: expected an OCTET STRING", at: octets) }
                parts.content = try reader.stringBytes(octets)
            }
            if let set = fields.readOptional(.contextSpecific(0)), set.isConstructed {
                var choices = reader.children(of: set)
                while let choice = choices.next() {
                    // Other CertificateChoices (attribute certificates, …) are skipped.
                    if choice.tag == .sequence { parts.certificates.append(Array(reader.encoding(of: choice))) }
                }
            }
            _ = fields.readOptional(.contextSpecific(1))
            try reader.constructed(try fields.read(.set, "signerInfos"), .set, "signerInfos") { list in
                while let signer = list.next() { parts.signers.append(try CMSSignerInfo(signer, reader)) }
            }
        }
        (contentType, content, certificates, signers) = parts
    }

    /// A detached signature (a code signature's CMS blob) with the content it signs.
    init(detached cms: CMSDetachedSignedData, content: [UInt8]) {
        contentType = cms.contentType
        self.content = content
        certificates = cms.certificates
        signers = cms.signers
        trailingBytes = 0
    }

    /// An envelope the decoder has read, with the signers read in the same parse
    /// (``CMSSignedData/parse(_:signers:)``).
    init(_ envelope: CMSSignedData, signers: [CMSSignerInfo]) {
        contentType = envelope.contentType
        content = envelope.content
        certificates = envelope.certificates
        self.signers = signers
        trailingBytes = envelope.trailingBytes
    }
}
