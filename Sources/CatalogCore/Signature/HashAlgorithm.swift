import Foundation
#if canImport(CommonCrypto)
import CommonCrypto
#elseif canImport(CCatalogCrypto)
import CCatalogCrypto
#endif

/// The digest algorithms a CMS signer or an X.509 signature may name (RFC 5754, RFC 3279 §2.2.1).
/// MD5 and MD2 are deliberately absent: a signature over them is reported as `error`
/// (unsupported), never as `verified`.
enum HashAlgorithm: String, Sendable, CaseIterable {
    case sha1 = "SHA-1"
    case sha224 = "SHA-224"
    case sha256 = "SHA-256"
    case sha384 = "SHA-384"
    case sha512 = "SHA-512"

    /// DigestAlgorithmIdentifier OIDs (RFC 3370 §2.1, RFC 5754 §2).
    init?(digestOID oid: String) {
        switch oid {
        case "1.3.14.3.2.26": self = .sha1
        case "2.16.840.1.101.3.4.2.4": self = .sha224
        case "2.16.840.1.101.3.4.2.1": self = .sha256
        case "2.16.840.1.101.3.4.2.2": self = .sha384
        case "2.16.840.1.101.3.4.2.3": self = .sha512
        default: return nil
        }
    }

    func digest(_ bytes: [UInt8]) -> [UInt8] {
        switch self {
        case .sha1: return Digest.sha1(bytes)
        case .sha256: return Digest.sha256(bytes)
        case .sha224, .sha384, .sha512: break
        }
        var out = [UInt8](repeating: 0, count: self == .sha224 ? 28 : self == .sha384 ? 48 : 64)
        bytes.withUnsafeBufferPointer { input in
            #if canImport(CommonCrypto)
            let count = CC_LONG(input.count)
            switch self {
            case .sha224: _ = CC_SHA224(input.baseAddress, count, &out)
            case .sha384: _ = CC_SHA384(input.baseAddress, count, &out)
            default: _ = CC_SHA512(input.baseAddress, count, &out)
            }
            #else
            switch self {
            case .sha224: _ = SHA224(input.baseAddress, input.count, &out)
            case .sha384: _ = SHA384(input.baseAddress, input.count, &out)
            default: _ = SHA512(input.baseAddress, input.count, &out)
            }
            #endif
        }
        return out
    }
}
