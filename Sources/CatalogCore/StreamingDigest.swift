#if canImport(CommonCrypto)
import CommonCrypto
#elseif canImport(CCatalogCrypto)
import CCatalogCrypto
#endif

/// SHA-1 or SHA-256 of bytes given a chunk at a time, so that a large file is hashed without being
/// held whole (a resource the seal lists may be hundreds of megabytes).
package final class StreamingDigest {
    package enum Kind: Sendable { case sha1, sha256 }

    let kind: Kind
    #if canImport(CommonCrypto)
    private var sha1Context = CC_SHA1_CTX()
    private var sha256Context = CC_SHA256_CTX()
    #else
    private var context: OpaquePointer?
    #endif

    package init(_ kind: Kind) {
        self.kind = kind
        #if canImport(CommonCrypto)
        switch kind {
        case .sha1: CC_SHA1_Init(&sha1Context)
        case .sha256: CC_SHA256_Init(&sha256Context)
        }
        #else
        context = EVP_MD_CTX_new()
        let implementation = kind == .sha1 ? LibcryptoDigests.sha1 : LibcryptoDigests.sha256
        if let context, EVP_DigestInit_ex(context, implementation ?? (kind == .sha1 ? EVP_sha1() : EVP_sha256()), nil) != 1 {
            EVP_MD_CTX_free(context)
            self.context = nil
        }
        #endif
    }

    deinit {
        #if !canImport(CommonCrypto)
        EVP_MD_CTX_free(context)
        #endif
    }

    package func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            #if canImport(CommonCrypto)
            switch kind {
            case .sha1: _ = CC_SHA1_Update(&sha1Context, buffer.baseAddress, CC_LONG(buffer.count))
            case .sha256: _ = CC_SHA256_Update(&sha256Context, buffer.baseAddress, CC_LONG(buffer.count))
            }
            #else
            _ = EVP_DigestUpdate(context, buffer.baseAddress, buffer.count)
            #endif
        }
    }

    /// The digest of everything given; the object is spent afterwards.
    package func finish() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: kind == .sha1 ? 20 : 32)
        #if canImport(CommonCrypto)
        switch kind {
        case .sha1: _ = CC_SHA1_Final(&out, &sha1Context)
        case .sha256: _ = CC_SHA256_Final(&out, &sha256Context)
        }
        #else
        var length: UInt32 = 0
        _ = EVP_DigestFinal_ex(context, &out, &length)
        #endif
        return out
    }
}
