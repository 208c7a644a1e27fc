import Foundation
#if canImport(Security)
import Security
#elseif canImport(CCatalogCrypto)
import CCatalogCrypto
#endif

/// Checks one signature with the platform's crypto library: libcrypto's `EVP_PKEY_verify` of the
/// message's digest on Linux, `SecKeyVerifySignature` on Apple systems. Both take the
/// same inputs (an RSA PKCS#1 v1.5 signature, or an ECDSA signature as a DER `Ecdsa-Sig-Value`),
/// so both platforms give the same answer for the same bytes.
///
/// Why not the library's CMS API (`CMS_verify`, `SecCMSDecoder`)? The two differ in what they
/// check (purpose, time, trust store) and report, macOS has no public CMS verifier with pinned
/// anchors, and we already parse the envelope with our own BER reader: verifying the primitives
/// ourselves keeps one set of rules, the same on both platforms, and lets every status carry an
/// exact reason.
enum PublicKeyVerifier {
    enum Outcome: Equatable, Sendable {
        case valid
        case invalid
        /// The key or algorithm could not be used at all (not a statement about the signature).
        case unusable(String)
    }

    /// `key` is the certificate's SubjectPublicKeyInfo; `message` is what was signed (not its hash).
    static func verify(_ signature: [UInt8], over message: [UInt8], key: PublicKeyInfo,
                       algorithm: SignatureAlgorithm) -> Outcome {
        guard key.keyType == algorithm.keyType else {
            return .unusable("a \(algorithm.keyType.rawValue) signature but a \(key.keyType?.rawValue ?? "unknown") key")
        }
        #if canImport(Security)
        return verifyWithSecurity(signature, message, key, algorithm)
        #else
        return verifyWithLibcrypto(signature, message, key, algorithm)
        #endif
    }

    #if canImport(Security)
    private static func verifyWithSecurity(_ signature: [UInt8], _ message: [UInt8], _ key: PublicKeyInfo,
                                           _ algorithm: SignatureAlgorithm) -> Outcome {
        // SecKeyCreateWithData takes the BIT STRING's content: PKCS#1 RSAPublicKey for RSA, the
        // X9.63 point for EC — not the whole SubjectPublicKeyInfo.
        let type = algorithm.keyType == .rsa ? kSecAttrKeyTypeRSA : kSecAttrKeyTypeECSECPrimeRandom
        let attributes = [kSecAttrKeyType as String: type, kSecAttrKeyClass as String: kSecAttrKeyClassPublic] as CFDictionary
        // Each call returns its error retained (the Create Rule): released as soon as it is back.
        var loadError: Unmanaged<CFError>?
        let loaded = SecKeyCreateWithData(Data(key.keyBits) as CFData, attributes, &loadError)
        loadError?.release()
        guard let secKey = loaded else {
            return .unusable("the public key could not be loaded")
        }
        let secAlgorithm: SecKeyAlgorithm
        switch (algorithm.keyType, algorithm.hash) {
        case (.rsa, .sha1): secAlgorithm = .rsaSignatureMessagePKCS1v15SHA1
        case (.rsa, .sha224): secAlgorithm = .rsaSignatureMessagePKCS1v15SHA224
        case (.rsa, .sha256): secAlgorithm = .rsaSignatureMessagePKCS1v15SHA256
        case (.rsa, .sha384): secAlgorithm = .rsaSignatureMessagePKCS1v15SHA384
        case (.rsa, .sha512): secAlgorithm = .rsaSignatureMessagePKCS1v15SHA512
        case (.ecdsa, .sha1): secAlgorithm = .ecdsaSignatureMessageX962SHA1
        case (.ecdsa, .sha224): secAlgorithm = .ecdsaSignatureMessageX962SHA224
        case (.ecdsa, .sha256): secAlgorithm = .ecdsaSignatureMessageX962SHA256
        case (.ecdsa, .sha384): secAlgorithm = .ecdsaSignatureMessageX962SHA384
        case (.ecdsa, .sha512): secAlgorithm = .ecdsaSignatureMessageX962SHA512
        }
        guard SecKeyIsAlgorithmSupported(secKey, .verify, secAlgorithm) else {
            return .unusable("\(algorithm.description) is not supported for this key")
        }
        var verifyError: Unmanaged<CFError>?
        let ok = SecKeyVerifySignature(secKey, secAlgorithm, Data(message) as CFData,
                                       Data(signature) as CFData, &verifyError)
        verifyError?.release()
        return ok ? .valid : .invalid
    }
    #else
    private static func verifyWithLibcrypto(_ signature: [UInt8], _ message: [UInt8], _ key: PublicKeyInfo,
                                            _ algorithm: SignatureAlgorithm) -> Outcome {
        // libcrypto keeps a per-thread error queue; leave it empty whatever happens.
        defer { ERR_clear_error() }
        guard let pkey = LibcryptoKeys.shared.key(for: key.der) else {
            return .unusable("the public key could not be loaded")
        }
        // The digest, then the key operation on it: what EVP_DigestVerify does in one call, with a
        // context set up once per key and digest rather than for every check.
        guard let md = LibcryptoDigests.implementation(of: algorithm.hash),
              let context = LibcryptoVerifyContexts.shared.take(pkey, algorithm.hash, md: md) else {
            LibcryptoKeys.shared.release(pkey)
            return .unusable("\(algorithm.description) is not supported for this key")
        }
        // Only a key the cache holds is met again: a context for any other is freed with it.
        defer {
            if LibcryptoKeys.shared.release(pkey) {
                LibcryptoVerifyContexts.shared.put(context, pkey, algorithm.hash)
            } else {
                EVP_PKEY_CTX_free(context)
            }
        }
        let digest = algorithm.hash.digest(message)
        let result = signature.withUnsafeBufferPointer { sig in
            EVP_PKEY_verify(context, sig.baseAddress, sig.count, digest, digest.count)
        }
        // 1: valid; 0: the signature does not match; <0: malformed signature (also not a match).
        return result == 1 ? .valid : .invalid
    }
    #endif
}

#if !canImport(Security)
/// Public keys loaded by libcrypto, kept for the process: `d2i_PUBKEY` goes through OpenSSL 3's
/// decoder framework and cost more than the signature check itself, and one signer key signs
/// thousands of profiles. An `EVP_PKEY` is safe to share between threads for verification (each
/// check has its own `EVP_MD_CTX`). Bounded: past `limit` keys, new ones are loaded and freed per use.
final class LibcryptoKeys: @unchecked Sendable {
    static let shared = LibcryptoKeys()
    static let limit = 256

    private let lock = NSLock()
    private var keys: [DERKey: OpaquePointer] = [:]   // DERKey: hashed in one pass, not byte by byte

    /// A key for `spki`; pass it to `release` when done.
    func key(for spki: [UInt8]) -> OpaquePointer? {
        let key = DERKey(spki)
        lock.lock()
        let cached = keys[key]
        lock.unlock()
        if let cached { return cached }
        let loaded: OpaquePointer? = spki.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        guard let loaded else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if let raced = keys[key] {
            EVP_PKEY_free(loaded)
            return raced
        }
        if keys.count < Self.limit { keys[key] = loaded }
        return loaded
    }

    /// Frees `key` unless the cache holds it; whether it does.
    @discardableResult
    func release(_ key: OpaquePointer) -> Bool {
        lock.lock()
        let held = keys.values.contains(key)
        lock.unlock()
        if !held { EVP_PKEY_free(key) }
        return held
    }
}
#endif

/// A SubjectPublicKeyInfo (RFC 5280 §4.1.2.7):
/// ```
/// SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }
/// ```
struct PublicKeyInfo: Sendable, Equatable {
    /// The whole SubjectPublicKeyInfo encoding (what `d2i_PUBKEY` reads).
    let der: [UInt8]
    let algorithmOID: String
    /// The BIT STRING's content without its unused-bits octet (what `SecKeyCreateWithData` reads).
    let keyBits: [UInt8]

    var keyType: SignatureAlgorithm.KeyType? {
        switch algorithmOID {
        case SignatureAlgorithm.rsaEncryptionOID: .rsa
        case SignatureAlgorithm.ecPublicKeyOID: .ecdsa
        default: nil
        }
    }
}
