#if !canImport(CommonCrypto) && canImport(CCatalogCrypto)
import CCatalogCrypto

/// libcrypto's digest implementations, fetched once for the process. OpenSSL 3's one-shot
/// `SHA256()` and `SHA1()` fetch theirs from the provider by name on every call, and so does every
/// `EVP_DigestVerifyInit` given `EVP_sha256()` and friends (a lock and a name lookup each time).
/// A fetched `EVP_MD` is immutable and may be
/// shared between threads; nil when the provider has none.
enum LibcryptoDigests {
    nonisolated(unsafe) static let sha1 = EVP_MD_fetch(nil, "SHA1", nil)
    nonisolated(unsafe) static let sha224 = EVP_MD_fetch(nil, "SHA224", nil)
    nonisolated(unsafe) static let sha256 = EVP_MD_fetch(nil, "SHA256", nil)
    nonisolated(unsafe) static let sha384 = EVP_MD_fetch(nil, "SHA384", nil)
    nonisolated(unsafe) static let sha512 = EVP_MD_fetch(nil, "SHA512", nil)

    static func implementation(of hash: HashAlgorithm) -> OpaquePointer? {
        switch hash {
        case .sha1: sha1
        case .sha224: sha224
        case .sha256: sha256
        case .sha384: sha384
        case .sha512: sha512
        }
    }
}
#endif
