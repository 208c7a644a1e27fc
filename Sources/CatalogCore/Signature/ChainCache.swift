/// What chain checks can share between profiles: the same few Apple certificates (signer,
/// intermediate) sign thousands of profiles, so each is parsed once and each issuer→certificate
/// signature checked once per process. Only the per-profile work is left: the envelope, the content
/// digest and the signer's signature over it. Bounded; thread-safe (ingest decodes on two threads):
/// two ``BoundedCache``s.
final class ChainCache: Sendable {
    static let shared = ChainCache()

    /// Entries kept per table before it is emptied (a profile collection has a few dozen).
    static let limit = 4096

    private struct Link: Hashable {
        var certificate: [UInt8]
        var issuer: [UInt8]
    }

    private let certificates = BoundedCache<DERKey, ChainCertificate>(limit: limit)
    private let links = BoundedCache<Link, PublicKeyVerifier.Outcome>(limit: limit)

    /// The parsed certificate for `der`, parsed at most once; nil when it does not parse.
    func certificate(_ der: [UInt8]) -> ChainCertificate? {
        try? certificates.value(for: DERKey(der)) { try ChainCertificate(der: der) }
    }

    /// Whether `issuer`'s key verifies `certificate`'s signature, computed at most once per pair.
    func link(_ certificate: ChainCertificate, signedBy issuer: ChainCertificate,
              _ algorithm: SignatureAlgorithm) -> PublicKeyVerifier.Outcome {
        links.value(for: Link(certificate: certificate.sha256, issuer: issuer.sha256)) {
            PublicKeyVerifier.verify(certificate.signature, over: certificate.tbs, key: issuer.publicKey,
                                     algorithm: algorithm)
        }
    }
}
