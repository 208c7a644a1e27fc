/// The parts of a CMS SignedData message (RFC 5652) a provisioning profile is read for: the
/// encapsulated content and the certificates. Signatures are not verified.
///
/// ```
/// ContentInfo ::= SEQUENCE {
///   contentType ContentType,                      -- 1.2.840.113549.1.7.2 (id-signedData)
///   content [0] EXPLICIT ANY DEFINED BY contentType }
///
/// SignedData ::= SEQUENCE {
///   version CMSVersion,                           -- INTEGER
///   digestAlgorithms DigestAlgorithmIdentifiers,  -- SET OF AlgorithmIdentifier
///   encapContentInfo EncapsulatedContentInfo,
///   certificates [0] IMPLICIT CertificateSet OPTIONAL,
///   crls [1] IMPLICIT RevocationInfoChoices OPTIONAL,
///   signerInfos SignerInfos }                     -- SET OF SignerInfo
///
/// EncapsulatedContentInfo ::= SEQUENCE {
///   eContentType ContentType,
///   eContent [0] EXPLICIT OCTET STRING OPTIONAL }
///
/// CertificateSet ::= SET OF CertificateChoices
/// CertificateChoices ::= CHOICE {
///   certificate Certificate,                      -- SEQUENCE: the only choice kept
///   extendedCertificate [0] IMPLICIT ExtendedCertificate,  -- Obsolete
///   v1AttrCert [1] IMPLICIT AttributeCertificateV1,        -- Obsolete
///   v2AttrCert [2] IMPLICIT AttributeCertificateV2,
///   other [3] IMPLICIT OtherCertificateFormat }
/// ```
///
/// DER and BER are both accepted: indefinite lengths anywhere and a constructed eContent OCTET
/// STRING (as `openssl cms -sign -stream` writes), whose chunks are concatenated. A profile's
/// eContent must be present: a detached signature is an error.
///
/// Up to `maximumTrailingBytes` after the ContentInfo (a newline added by a download or a
/// copy-paste; openssl ignores them too) are accepted and counted in `trailingBytes`; more is an
/// error, and so is a truncated envelope.
package struct CMSSignedData: Sendable, Equatable {
    /// `id-signedData`.
    static let signedDataOID = "1.2.840.113549.1.7.2"

    /// Bytes after the outermost element that are ignored: room for a line ending or a little padding,
    /// not for a second envelope.
    package static let maximumTrailingBytes = 64

    /// eContentType OID, dotted ("1.2.840.113549.1.7.1").
    package let contentType: String
    /// The encapsulated content bytes; a constructed (BER) OCTET STRING's chunks are concatenated.
    package let content: [UInt8]
    /// DER bytes of every certificate in SignedData.certificates, in file order, duplicates kept.
    package let certificates: [[UInt8]]
    /// How many bytes followed the ContentInfo (0 to `maximumTrailingBytes`); they are ignored.
    package let trailingBytes: Int

    /// Throws `DecodeError` of kind `.malformedEnvelope`, with the byte offset, on anything malformed.
    package init(bytes: [UInt8]) throws {
        self = try Self.parse(bytes, signers: false).envelope
    }

    private init(contentType: String, content: [UInt8], certificates: [[UInt8]], trailingBytes: Int) {
        self.contentType = contentType
        self.content = content
        self.certificates = certificates
        self.trailingBytes = trailingBytes
    }

    /// The envelope as ``init(bytes:)`` reads it and, with `signers`, its SignerInfos from the same
    /// parse, for ``ProfileSignatureVerifier`` (the decoder parsed every envelope twice before):
    /// what they are, or what reading them threw. A signer that cannot be read is the verifier's
    /// `error` verdict, not a profile that does not decode.
    static func parse(_ bytes: [UInt8], signers: Bool)
        throws -> (envelope: CMSSignedData, signers: Result<[CMSSignerInfo], any Error>?) {
        let reader = try BERReader(bytes: bytes, errorKind: .malformedEnvelope,
                                   allowedTrailingBytes: Self.maximumTrailingBytes)
        let signedData = try reader.sequence(reader.root, "ContentInfo") { info in
            let typeNode = try info.read(.objectIdentifier, "ContentInfo.contentType")
            let type = try reader.objectIdentifier(typeNode, "ContentInfo.contentType")
            guard type == Self.signedDataOID else {
                throw reader.error("content type \(type) is not SignedData (\(Self.signedDataOID))", at: typeNode)
            }
            let wrapper = try info.read(.contextSpecific(0), "ContentInfo.content")
            return try reader.explicit(wrapper, 0, "ContentInfo.content")
        }
        let (contentType, content, certificates, signerSet) = try Self.parseSignedData(signedData, reader)
        let envelope = CMSSignedData(contentType: contentType, content: content, certificates: certificates,
                                     trailingBytes: reader.trailingBytes)
        guard signers else { return (envelope, nil) }
        return (envelope, Result {
            try reader.constructed(signerSet, .set, "signerInfos") { list in
                var signers: [CMSSignerInfo] = []
                while let signer = list.next() { signers.append(try CMSSignerInfo(signer, reader)) }
                return signers
            }
        })
    }

    private static func parseSignedData(
        _ node: BERNode, _ reader: BERReader
    ) throws -> (String, [UInt8], [[UInt8]], BERNode) {
        try reader.sequence(node, "SignedData") { fields in
            _ = try reader.integerBytes(try fields.read(.integer, "SignedData.version"), "SignedData.version")
            let digests = try fields.read(.set, "SignedData.digestAlgorithms")
            guard digests.isConstructed else {
                throw reader.error("SignedData.digestAlgorithms: expected a constructed SET", at: digests)
            }
            let encap = try fields.read(.sequence, "SignedData.encapContentInfo")
            let (type, content) = try parseEncapsulatedContentInfo(encap, reader)

            var certificates: [[UInt8]] = []
            if let set = fields.readOptional(.contextSpecific(0)) {
                guard set.isConstructed else {
                    throw reader.error("SignedData.certificates: expected a constructed [0]", at: set)
                }
                var choices = reader.children(of: set)
                while let choice = choices.next() {
                    // Other CertificateChoices (attribute certificates, …) are skipped.
                    if choice.tag == .sequence { certificates.append(Array(reader.encoding(of: choice))) }
                }
            }
            _ = fields.readOptional(.contextSpecific(1))
            let signers = try fields.read(.set, "SignedData.signerInfos")
            guard signers.isConstructed else {
                throw reader.error("SignedData.signerInfos: expected a constructed SET", at: signers)
            }
            return (type, content, certificates, signers)
        }
    }

    private static func parseEncapsulatedContentInfo(
        _ node: BERNode, _ reader: BERReader
    ) throws -> (String, [UInt8]) {
        try reader.sequence(node, "EncapsulatedContentInfo") { fields in
            let type = try reader.objectIdentifier(
                try fields.read(.objectIdentifier, "eContentType"), "eContentType")
            guard let wrapper = fields.readOptional(.contextSpecific(0)) else {
                throw reader.error("eContent is missing (detached signature)", at: node.contentEnd)
            }
            let octets = try reader.explicit(wrapper, 0, "eContent")
            guard octets.tag == .octetString else {
                throw reader.error("eContent: expected an OCTET STRING, found \(octets.tag)", at: octets)
            }
            return (type, try reader.stringBytes(octets))
        }
    }
}
