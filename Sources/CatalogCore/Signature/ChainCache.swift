import Foundation

/// What chain checks can share between profiles: the same few Apple certificates (signer,
/// intermediate) sign thousands of profiles, so each is parsed once and each issuer→certificate
/// signature checked once per process. Only the per-profile work is left: the envelope, the content
/// digest and the signer's signature over it. Bounded; thread-safe (ingest decodes on two threads).
///
/// A lock rather than `Mutex`: `Synchronization` needs macOS 15, the package supports 13.
final class ChainCache: @unchecked Sendable {
    static let shared = ChainCache()

    /// Entries kept per table before it is emptied (a profile collection has a few dozen).
    static let limit = 4096

    private struct Link: Hashable {
        var certificate: [UInt8]
        var issuer: [UInt8]
    }

    private let lock = NSLock()
    private var certificates: [DERKey: ChainCertificate] = [:]
    private var links: [Link: PublicKeyVerifier.Outcome] = [:]

    /// `NSLocking.withLock` needs macOS 14.
    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// The parsed certificate for `der`, parsed at most once; nil when it does not parse.
    func certificate(_ der: [UInt8]) -> ChainCertificate? {
        let key = DERKey(der)
        if let known = locked({ certificates[key] }) { return known }
        guard let parsed = try? ChainCertificate(der: der) else { return nil }
        locked {
            if certificates.count >= Self.limit { certificates.removeAll(keepingCapacity: true) }
            certificates[key] = parsed
        }
        return parsed
    }

    /// Whether `issuer`'s key verifies `certificate`'s signature, computed at most once per pair.
    func link(_ certificate: ChainCertificate, signedBy issuer: ChainCertificate,
              _ algorithm: SignatureAlgorithm) -> PublicKeyVerifier.Outcome {
        let key = Link(certificate: certificate.sha256, issuer: issuer.sha256)
        if let known = locked({ links[key] }) { return known }
        let outcome = PublicKeyVerifier.verify(certificate.signature, over: certificate.tbs, key: issuer.publicKey,
                                               algorithm: algorithm)
        locked {
            if links.count >= Self.limit { links.removeAll(keepingCapacity: true) }
            links[key] = outcome
        }
        return outcome
    }
}
