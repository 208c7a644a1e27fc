/// The developer certificates decoded so far in this process, by DER: a team's thousands of
/// profiles list the same few certificates, and each was parsed and fingerprinted (SHA-1 and
/// SHA-256) once per profile otherwise. Only certificates that decode are kept. Bounded;
/// thread-safe (ingest decodes on several threads), like ``ChainCache``.
/// Kept for speed: cold ingest (bench.py).
final class DeveloperCertificateCache: Sendable {
    static let shared = DeveloperCertificateCache()

    /// Entries kept before the table is emptied (a profile collection has a few hundred).
    static let limit = 4096

    private let certificates = BoundedCache<DERKey, DeveloperCertificate>(limit: limit)

    /// The certificate `der` decodes to, decoded at most once while it is kept. Throws as
    /// ``DeveloperCertificate/init(der:)`` does.
    func certificate(_ der: [UInt8]) throws -> DeveloperCertificate {
        try certificates.value(for: DERKey(der)) { try DeveloperCertificate(der: der) }
    }
}
