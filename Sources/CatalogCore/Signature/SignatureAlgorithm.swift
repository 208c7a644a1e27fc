/// A signature scheme: the key type it needs and the digest it signs.
///
/// Certificates name both in one OID (`sha256WithRSAEncryption`, `ecdsa-with-SHA384`). A CMS
/// SignerInfo may instead name only the key type (`rsaEncryption`, `id-ecPublicKey`), the digest
/// coming from its `digestAlgorithm` (RFC 5652 §5.3; RFC 3370 §3.2 allows exactly this, and every
/// real profile does it). RSASSA-PSS and MD5-based schemes are not accepted.
struct SignatureAlgorithm: Sendable, Equatable {
    enum KeyType: String, Sendable {
        case rsa = "RSA"
        case ecdsa = "ECDSA"
    }

    let keyType: KeyType
    let hash: HashAlgorithm

    static let rsaEncryptionOID = "1.2.840.113549.1.1.1"
    static let ecPublicKeyOID = "1.2.840.10045.2.1"

    /// A combined signature OID (RFC 4055 §5, RFC 5758 §3.2, RFC 3279 §2.2), with a bare key-type
    /// OID accepted when `digest` (the SignerInfo's digestAlgorithm) says which hash.
    init?(oid: String, digest: HashAlgorithm? = nil) {
        switch oid {
        case "1.2.840.113549.1.1.5": self.init(keyType: .rsa, hash: .sha1)
        case "1.2.840.113549.1.1.14": self.init(keyType: .rsa, hash: .sha224)
        case "1.2.840.113549.1.1.11": self.init(keyType: .rsa, hash: .sha256)
        case "1.2.840.113549.1.1.12": self.init(keyType: .rsa, hash: .sha384)
        case "1.2.840.113549.1.1.13": self.init(keyType: .rsa, hash: .sha512)
        case "1.2.840.10045.4.1": self.init(keyType: .ecdsa, hash: .sha1)
        case "1.2.840.10045.4.3.1": self.init(keyType: .ecdsa, hash: .sha224)
        case "1.2.840.10045.4.3.2": self.init(keyType: .ecdsa, hash: .sha256)
        case "1.2.840.10045.4.3.3": self.init(keyType: .ecdsa, hash: .sha384)
        case "1.2.840.10045.4.3.4": self.init(keyType: .ecdsa, hash: .sha512)
        case Self.rsaEncryptionOID:
            guard let digest else { return nil }
            self.init(keyType: .rsa, hash: digest)
        case Self.ecPublicKeyOID:
            guard let digest else { return nil }
            self.init(keyType: .ecdsa, hash: digest)
        default:
            return nil
        }
    }

    init(keyType: KeyType, hash: HashAlgorithm) {
        self.keyType = keyType
        self.hash = hash
    }

    var description: String { "\(keyType.rawValue) with \(hash.rawValue)" }
}
