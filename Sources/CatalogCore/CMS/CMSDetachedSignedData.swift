/// A CMS SignedData (RFC 5652) whose content travels beside it — a code signature's CMS blob,
/// which signs the CodeDirectory: the certificates and the signers, nothing else. Signatures are
/// not verified.
///
/// ```
/// ContentInfo ::= SEQUENCE { contentType ContentType, content [0] EXPLICIT SignedData }
/// SignedData ::= SEQUENCE {
///   version CMSVersion, digestAlgorithms SET OF AlgorithmIdentifier,
///   encapContentInfo SEQUENCE { eContentType ContentType, eContent [0] EXPLICIT OCTET STRING OPTIONAL },
///   certificates [0] IMPLICIT CertificateSet OPTIONAL, crls [1] IMPLICIT RevocationInfoChoices OPTIONAL,
///   signerInfos SET OF SignerInfo }
/// ```
///
/// BER is accepted as for profiles. Bytes after the ContentInfo (the blob's padding) are ignored.
struct CMSDetachedSignedData: Sendable {
    /// DER of each certificate in `certificates`, in file order.
    let certificates: [[UInt8]]
    let signers: [CMSSignerInfo]
    /// eContentType, dotted: what the signed content is (id-data for a CodeDirectory).
    let contentType: String

    /// Throws `DecodeError` of kind `.malformedEnvelope`, with the byte offset in `bytes`.
    init(bytes: [UInt8]) throws {
        let reader = try BERReader(bytes: bytes, errorKind: .malformedEnvelope, allowedTrailingBytes: bytes.count)
        let signedData = try reader.sequence(reader.root, "ContentInfo") { info in
            let typeNode = try info.read(.objectIdentifier, "ContentInfo.contentType")
            let type = try reader.objectIdentifier(typeNode, "ContentInfo.contentType")
            guard type == CMSSignedData.signedDataOID else {
                throw reader.error("content type \(type) is not SignedData (\(CMSSignedData.signedDataOID))", at: typeNode)
            }
            return try reader.explicit(try info.read(.contextSpecific(0), "ContentInfo.content"), 0, "ContentInfo.content")
        }
        var parts = (certificates: [[UInt8]](), signers: [CMSSignerInfo](), type: "")
        try reader.sequence(signedData, "SignedData") { fields in
            _ = try reader.integerBytes(try fields.read(.integer, "SignedData.version"), "SignedData.version")
            _ = try fields.read(.set, "SignedData.digestAlgorithms")
            try reader.sequence(try fields.read(.sequence, "SignedData.encapContentInfo"), "EncapsulatedContentInfo") { encap in
                parts.type = try reader.objectIdentifier(try encap.read(.objectIdentifier, "eContentType"), "eContentType")
                _ = encap.readOptional(.contextSpecific(0))
            }
            if let set = fields.readOptional(.contextSpecific(0)) {
                guard set.isConstructed else { throw reader.error("SignedData.certificates: expected a constructed [0]", at: set) }
                var choices = reader.children(of: set)
                while let choice = choices.next() {
                    // Other CertificateChoices (attribute certificates, …) are skipped.
                    if choice.tag == .sequence { parts.certificates.append(Array(reader.encoding(of: choice))) }
                }
            }
            _ = fields.readOptional(.contextSpecific(1))
            try reader.constructed(try fields.read(.set, "SignedData.signerInfos"), .set, "signerInfos") { list in
                while let signer = list.next() { parts.signers.append(try CMSSignerInfo(signer, reader)) }
            }
        }
        (certificates, signers, contentType) = parts
    }
}
