import Foundation

/// What chain building needs from an X.509 certificate (RFC 5280 §4.1), beside the indexed fields
/// `X509Certificate` keeps: the exact signed bytes, the signature, the raw names, the key and the
/// CA flag.
///
/// ```
/// Certificate ::= SEQUENCE { tbsCertificate TBSCertificate,
///                            signatureAlgorithm AlgorithmIdentifier, signatureValue BIT STRING }
/// AlgorithmIdentifier ::= SEQUENCE { algorithm OBJECT IDENTIFIER, parameters ANY OPTIONAL }
/// Extension ::= SEQUENCE { extnID OBJECT IDENTIFIER, critical BOOLEAN DEFAULT FALSE,
///                          extnValue OCTET STRING }
/// BasicConstraints ::= SEQUENCE { cA BOOLEAN DEFAULT FALSE, pathLenConstraint INTEGER OPTIONAL }
/// SubjectKeyIdentifier ::= OCTET STRING
/// ```
///
/// Names are compared as encoded bytes: Apple's CAs write the issuer of each certificate exactly as
/// the subject of its issuer, and a byte comparison cannot be fooled by string-preparation rules.
///
/// A class, immutable: the envelope's certificates, the pool and every chain path hold the same
/// instance by one reference. As a struct of fourteen fields, ten of them arrays or strings, each
/// copy would retain and release each of them.
final class ChainCertificate: Sendable {
    let der: [UInt8]
    let sha256: [UInt8]
    /// The tbsCertificate encoding: the bytes the issuer signed.
    let tbs: [UInt8]
    let signatureAlgorithmOID: String
    let signature: [UInt8]
    let serial: [UInt8]
    let issuer: [UInt8]
    let subject: [UInt8]
    let notBefore: Date
    let notAfter: Date
    let publicKey: PublicKeyInfo
    /// basicConstraints cA; false when the extension is absent (RFC 5280 §4.2.1.9).
    let isCA: Bool
    let subjectKeyIdentifier: [UInt8]?
    let subjectCommonName: String?
    let issuerCommonName: String?

    var isSelfIssued: Bool { issuer == subject }

    /// A short label for reasons: the subject CN, else the SHA-256 prefix.
    var label: String { "'\(subjectCommonName ?? "SHA-256 " + Digest.hex(sha256.prefix(8)))'" }

    static let basicConstraintsOID: [UInt8] = [0x55, 0x1D, 0x13]
    static let subjectKeyIdentifierOID: [UInt8] = [0x55, 0x1D, 0x0E]

    /// Throws `DecodeError` of kind `.malformedCertificate`.
    init(der: [UInt8]) throws {
        let reader = try BERReader(bytes: der, errorKind: .malformedCertificate)
        let (tbsNode, algorithm, signatureBits) = try reader.sequence(reader.root, "Certificate") { certificate in
            let tbs = try certificate.read(.sequence, "tbsCertificate")
            let algorithm = try Self.algorithmOID(try certificate.read(.sequence, "signatureAlgorithm"), reader)
            let bits = try Self.bitString(try certificate.read(.bitString, "signatureValue"), reader)
            return (tbs, algorithm, bits)
        }
        self.der = der
        sha256 = Digest.sha256(der)
        tbs = Array(reader.encoding(of: tbsNode))
        signatureAlgorithmOID = algorithm
        signature = signatureBits
        let fields = try TBSFields.parse(tbsNode, reader)
        serial = fields.serial
        issuer = Array(reader.encoding(of: fields.issuer))
        subject = Array(reader.encoding(of: fields.subject))
        (notBefore, notAfter) = fields.validity
        publicKey = fields.publicKey
        isCA = fields.isCA
        subjectKeyIdentifier = fields.subjectKeyIdentifier
        subjectCommonName = try Self.commonName(fields.subject, reader)
        issuerCommonName = try Self.commonName(fields.issuer, reader)
    }

    /// The fields of the tbsCertificate that chain building reads, the names still as nodes.
    ///
    /// ```
    /// TBSCertificate ::= SEQUENCE { version [0] EXPLICIT Version DEFAULT v1,
    ///     serialNumber INTEGER, signature AlgorithmIdentifier, issuer Name, validity Validity,
    ///     subject Name, subjectPublicKeyInfo SubjectPublicKeyInfo,
    ///     issuerUniqueID [1] IMPLICIT OPTIONAL, subjectUniqueID [2] IMPLICIT OPTIONAL,
    ///     extensions [3] EXPLICIT Extensions OPTIONAL }
    /// ```
    private struct TBSFields {
        let serial: [UInt8]
        let issuer: BERNode
        let subject: BERNode
        let validity: (notBefore: Date, notAfter: Date)
        let publicKey: PublicKeyInfo
        /// basicConstraints cA, false without the extension.
        var isCA = false
        var subjectKeyIdentifier: [UInt8]? = nil

        static func parse(_ tbs: BERNode, _ reader: BERReader) throws -> TBSFields {
            try reader.sequence(tbs, "tbsCertificate") { fields in
                if let version = fields.readOptional(.contextSpecific(0)) {
                    _ = try reader.integerBytes(try reader.explicit(version, 0, "version"), "version")
                }
                let serial = Array(try reader.integerBytes(try fields.read(.integer, "serialNumber"), "serialNumber"))
                _ = try fields.read(.sequence, "signature")
                let issuer = try fields.read(.sequence, "issuer")
                let validity = try X509Certificate.parseValidity(try fields.read(.sequence, "validity"), reader)
                let subject = try fields.read(.sequence, "subject")
                let key = try Self.publicKeyInfo(try fields.read(.sequence, "subjectPublicKeyInfo"), reader)
                _ = fields.readOptional(.contextSpecific(1))
                _ = fields.readOptional(.contextSpecific(2))
                var parsed = TBSFields(serial: serial, issuer: issuer, subject: subject, validity: validity,
                                       publicKey: key)
                if let wrapper = fields.readOptional(.contextSpecific(3)) {
                    try parsed.readExtensions(try reader.explicit(wrapper, 3, "extensions"), reader)
                }
                return parsed
            }
        }

        /// `SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }`.
        private static func publicKeyInfo(_ spki: BERNode, _ reader: BERReader) throws -> PublicKeyInfo {
            try reader.sequence(spki, "subjectPublicKeyInfo") { info in
                PublicKeyInfo(der: Array(reader.encoding(of: spki)),
                              algorithmOID: try ChainCertificate.algorithmOID(try info.read(.sequence, "algorithm"), reader),
                              keyBits: try ChainCertificate.bitString(try info.read(.bitString, "subjectPublicKey"), reader))
            }
        }

        /// `Extensions ::= SEQUENCE OF Extension`: basicConstraints and subjectKeyIdentifier are read,
        /// the others' identifiers only checked.
        private mutating func readExtensions(_ extensions: BERNode, _ reader: BERReader) throws {
            try reader.sequence(extensions, "Extensions") { list in
                while let item = list.next() {
                    try reader.sequence(item, "Extension") { ext in
                        let id = try ext.read(.objectIdentifier, "extnID")
                        _ = try reader.objectIdentifier(id, "extnID")
                        _ = ext.readOptional(.boolean)
                        let value = try ext.read(.octetString, "extnValue")
                        let oid = Array(reader.content(of: id))
                        if oid == ChainCertificate.basicConstraintsOID {
                            isCA = try ChainCertificate.basicConstraintsCA(try reader.stringBytes(value))
                        } else if oid == ChainCertificate.subjectKeyIdentifierOID {
                            subjectKeyIdentifier = try Self.subjectKeyIdentifier(value, reader)
                        }
                    }
                }
            }
        }

        /// `SubjectKeyIdentifier ::= OCTET STRING`, inside the extension's OCTET STRING value.
        private static func subjectKeyIdentifier(_ value: BERNode, _ reader: BERReader) throws -> [UInt8] {
            let inner = try BERReader(bytes: try reader.stringBytes(value), errorKind: .malformedCertificate)
            guard inner.root.tag == .octetString else {
                throw reader.error("subjectKeyIdentifier: expected an OCTET STRING", at: value)
            }
            return try inner.stringBytes(inner.root)
        }
    }

    static func algorithmOID(_ node: BERNode, _ reader: BERReader) throws -> String {
        guard node.isConstructed, let first = reader.children(of: node).peek() else {
            throw reader.error("AlgorithmIdentifier: expected a SEQUENCE with an OID", at: node)
        }
        return try reader.objectIdentifier(first, "AlgorithmIdentifier.algorithm")
    }

    /// A BIT STRING's bits as octets; only whole octets (no unused bits) are meaningful for keys
    /// and signatures.
    static func bitString(_ node: BERNode, _ reader: BERReader) throws -> [UInt8] {
        let octets = try reader.stringBytes(node)
        guard let unused = octets.first, unused == 0 else {
            throw reader.error("BIT STRING with unused bits where whole octets are expected", at: node)
        }
        return Array(octets.dropFirst())
    }

    private static func basicConstraintsCA(_ value: [UInt8]) throws -> Bool {
        let reader = try BERReader(bytes: value, errorKind: .malformedCertificate)
        return try reader.sequence(reader.root, "BasicConstraints") { fields in
            var isCA = false
            if let flag = fields.readOptional(.boolean) {
                isCA = reader.content(of: flag).first.map { $0 != 0 } ?? false
            }
            _ = fields.readOptional(.integer)
            return isCA
        }
    }

    /// The first CN in a Name, for reasons and the signer check.
    private static func commonName(_ name: BERNode, _ reader: BERReader) throws -> String? {
        var index = name.index + 1
        while index < name.nextSibling {
            let node = reader.nodes[index]
            if node.tag == .objectIdentifier, Array(reader.content(of: node)) == X509Certificate.commonName,
               index + 1 < name.nextSibling {
                return try X509Certificate.decodeString(reader.nodes[index + 1], reader)
            }
            index += 1
        }
        return nil
    }
}
