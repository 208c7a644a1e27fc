import Foundation

/// One signer of a CMS SignedData (RFC 5652 §5.3), with the attributes verification needs.
///
/// ```
/// SignerInfo ::= SEQUENCE {
///   version CMSVersion,
///   sid SignerIdentifier,
///   digestAlgorithm DigestAlgorithmIdentifier,
///   signedAttrs [0] IMPLICIT SignedAttributes OPTIONAL,
///   signatureAlgorithm SignatureAlgorithmIdentifier,
///   signature SignatureValue,                          -- OCTET STRING
///   unsignedAttrs [1] IMPLICIT UnsignedAttributes OPTIONAL }
/// SignerIdentifier ::= CHOICE {
///   issuerAndSerialNumber IssuerAndSerialNumber,       -- SEQUENCE { issuer Name, serialNumber INTEGER }
///   subjectKeyIdentifier [0] SubjectKeyIdentifier }
/// SignedAttributes ::= SET SIZE (1..MAX) OF Attribute
/// Attribute ::= SEQUENCE { attrType OBJECT IDENTIFIER, attrValues SET OF AttributeValue }
/// ```
struct CMSSignerInfo: Sendable {
    enum Identifier: Sendable, Equatable {
        case issuerAndSerial(issuer: [UInt8], serial: [UInt8])
        case subjectKeyIdentifier([UInt8])
    }

    static let contentTypeOID = "1.2.840.113549.1.9.3"
    static let messageDigestOID = "1.2.840.113549.1.9.4"
    static let signingTimeOID = "1.2.840.113549.1.9.5"
    /// Apple's CDHashes attributes on a code signature: a plist of every CodeDirectory's cdhash, and
    /// (hash algorithm, full digest) pairs.
    static let cdHashesPlistOID = "1.2.840.113635.100.9.1"
    static let cdHashesOID = "1.2.840.113635.100.9.2"

    let identifier: Identifier
    let digestAlgorithmOID: String
    /// The DER the signature covers when signed attributes are present: the `[0] IMPLICIT` field
    /// re-tagged as the `SET OF` it stands for (RFC 5652 §5.4: "EXPLICIT SET OF tag").
    let signedAttributesDER: [UInt8]?
    /// Values of the contentType, messageDigest and signingTime attributes, when present.
    let contentType: String?
    let messageDigest: [UInt8]?
    let signingTime: Date?
    /// The CDHashes plist attribute's bytes (an XML plist `{cdhashes: [data]}`), when present.
    let cdHashesPlist: [UInt8]?
    /// The CDHashes attribute's (digest algorithm OID, digest) values, when present.
    let cdHashes: [(algorithm: String, digest: [UInt8])]?
    let signatureAlgorithmOID: String
    let signature: [UInt8]

    init(_ node: BERNode, _ reader: BERReader) throws {
        var fields = (identifier: Identifier?.none, digest: "", attributes: [UInt8]?.none,
                      contentType: String?.none, messageDigest: [UInt8]?.none, signingTime: Date?.none,
                      cdHashesPlist: [UInt8]?.none, cdHashes: [(algorithm: String, digest: [UInt8])]?.none,
                      algorithm: "", signature: [UInt8]())
        try reader.sequence(node, "SignerInfo") { info in
            _ = try reader.integerBytes(try info.read(.integer, "SignerInfo.version"), "SignerInfo.version")
            let sid = try info.read("SignerInfo.sid")
            if sid.tag == .sequence {
                fields.identifier = try reader.sequence(sid, "IssuerAndSerialNumber") { pair in
                    let issuer = try pair.read(.sequence, "IssuerAndSerialNumber.issuer")
                    let serial = try reader.integerBytes(try pair.read(.integer, "serialNumber"), "serialNumber")
                    return .issuerAndSerial(issuer: Array(reader.encoding(of: issuer)), serial: Array(serial))
                }
            } else if sid.tag == .contextSpecific(0) {
                fields.identifier = .subjectKeyIdentifier(try reader.stringBytes(sid))
            } else {
                throw reader.error("SignerInfo.sid: unexpected \(sid.tag)", at: sid)
            }
            fields.digest = try ChainCertificate.algorithmOID(try info.read(.sequence, "digestAlgorithm"), reader)
            if let attributes = info.readOptional(.contextSpecific(0)) {
                guard attributes.isConstructed else {
                    throw reader.error("signedAttrs: expected a constructed [0]", at: attributes)
                }
                fields.attributes = Self.derSet(attributes, reader)
                try Self.readAttributes(attributes, reader, into: &fields)
            }
            fields.algorithm = try ChainCertificate.algorithmOID(try info.read(.sequence, "signatureAlgorithm"), reader)
            fields.signature = try reader.stringBytes(try info.read(.octetString, "SignerInfo.signature"))
            _ = info.readOptional(.contextSpecific(1))
        }
        identifier = fields.identifier!
        digestAlgorithmOID = fields.digest
        signedAttributesDER = fields.attributes
        contentType = fields.contentType
        messageDigest = fields.messageDigest
        signingTime = fields.signingTime
        cdHashesPlist = fields.cdHashesPlist
        cdHashes = fields.cdHashes
        signatureAlgorithmOID = fields.algorithm
        signature = fields.signature
    }

    /// `SET` (0x31) with a definite length around the attributes' encodings as found. For DER input
    /// (every real profile) this is exactly the signed encoding; a BER (indefinite-length) field is
    /// given a definite length, which is what a DER re-encoding needs.
    private static func derSet(_ node: BERNode, _ reader: BERReader) -> [UInt8] {
        let content = reader.content(of: node)
        var out: [UInt8] = [0x31]
        let count = content.count
        if count < 0x80 {
            out.append(UInt8(count))
        } else {
            var lengthBytes: [UInt8] = []
            var value = count
            while value > 0 { lengthBytes.insert(UInt8(value & 0xFF), at: 0); value >>= 8 }
            out.append(0x80 | UInt8(lengthBytes.count))
            out += lengthBytes
        }
        out += content
        return out
    }

    private static func readAttributes(
        _ node: BERNode, _ reader: BERReader,
        into fields: inout (identifier: Identifier?, digest: String, attributes: [UInt8]?, contentType: String?,
                            messageDigest: [UInt8]?, signingTime: Date?, cdHashesPlist: [UInt8]?,
                            cdHashes: [(algorithm: String, digest: [UInt8])]?, algorithm: String, signature: [UInt8])
    ) throws {
        var seen: Set<String> = []
        var attributes = reader.children(of: node)
        while let attribute = attributes.next() {
            try reader.sequence(attribute, "Attribute") { pair in
                let type = try reader.objectIdentifier(try pair.read(.objectIdentifier, "attrType"), "attrType")
                let values = try pair.read(.set, "attrValues")
                guard [contentTypeOID, messageDigestOID, signingTimeOID, cdHashesPlistOID, cdHashesOID].contains(type) else { return }
                // RFC 5652 §11: each of these appears once, with exactly one value (Apple's CDHashes: once).
                guard seen.insert(type).inserted else { throw reader.error("attribute \(type) appears twice", at: attribute) }
                if type == cdHashesOID {
                    var pairs: [(algorithm: String, digest: [UInt8])] = []
                    try reader.constructed(values, .set, "CDHashes values") { list in
                        while let value = list.next() {
                            try reader.sequence(value, "CDHashes value") { pair in
                                let algorithm = try reader.objectIdentifier(try pair.read(.objectIdentifier, "hash algorithm"),
                                                                            "hash algorithm")
                                pairs.append((algorithm, try reader.stringBytes(try pair.read(.octetString, "digest"))))
                            }
                        }
                    }
                    fields.cdHashes = pairs
                    return
                }
                let value = try reader.constructed(values, .set, "attrValues") { list in try list.read("attrValue") }
                switch type {
                case contentTypeOID: fields.contentType = try reader.objectIdentifier(value, "contentType")
                case messageDigestOID:
                    guard value.tag == .octetString else { throw reader.error("messageDigest: expected an OCTET STRING", at: value) }
                    fields.messageDigest = try reader.stringBytes(value)
                case cdHashesPlistOID:
                    guard value.tag == .octetString else { throw reader.error("CDHashes plist: expected an OCTET STRING", at: value) }
                    fields.cdHashesPlist = try reader.stringBytes(value)
                default: fields.signingTime = try X509Certificate.parseTime(value, reader)
                }
            }
        }
    }
}
