#if !canImport(Security)
import CCatalogCrypto
import Foundation

/// libcrypto verification contexts, each set up once for a key and a digest and then reused:
/// `EVP_DigestVerifyInit` looks the signature implementation up by name in the provider for every
/// call (a lock and string compares), and every profile needs one check.
/// An `EVP_PKEY_CTX` after `EVP_PKEY_verify_init` serves any number of `EVP_PKEY_verify` calls
/// with the same parameters, but one thread at a time: a context is taken from the pool for one
/// check and put back after it, for keys that ``LibcryptoKeys`` holds for the process (a context
/// holds a reference to its key, so no other key can take its address while it is pooled). At most
/// ``limit`` idle contexts are kept; past that they are freed after use.
final class LibcryptoVerifyContexts: @unchecked Sendable {
    static let shared = LibcryptoVerifyContexts()
    static let limit = 64

    private struct Key: Hashable {
        let key: OpaquePointer
        let hash: HashAlgorithm
    }

    private let lock = NSLock()
    private var idle: [Key: [OpaquePointer]] = [:]
    private var idleCount = 0

    /// A context set up to verify signatures by `key` over a `hash` digest (`md`); pass it to
    /// `put` when done. Nil when libcrypto cannot set one up for this key and digest.
    func take(_ key: OpaquePointer, _ hash: HashAlgorithm, md: OpaquePointer) -> OpaquePointer? {
        let slot = Key(key: key, hash: hash)
        lock.lock()
        if let context = idle[slot]?.popLast() {
            idleCount -= 1
            lock.unlock()
            return context
        }
        lock.unlock()
        guard let context = EVP_PKEY_CTX_new(key, nil) else { return nil }
        guard EVP_PKEY_verify_init(context) == 1, EVP_PKEY_CTX_set_signature_md(context, md) == 1 else {
            EVP_PKEY_CTX_free(context)
            return nil
        }
        return context
    }

    /// Returns a context from `take` for reuse with the same key and digest.
    func put(_ context: OpaquePointer, _ key: OpaquePointer, _ hash: HashAlgorithm) {
        lock.lock()
        if idleCount < Self.limit {
            idle[Key(key: key, hash: hash), default: []].append(context)
            idleCount += 1
            lock.unlock()
        } else {
            lock.unlock()
            EVP_PKEY_CTX_free(context)
        }
    }
}
#endif
