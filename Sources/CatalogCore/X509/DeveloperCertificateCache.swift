import Foundation

/// The developer certificates decoded so far in this process, by DER: a team's thousands of
/// profiles list the same few certificates, and each was parsed and fingerprinted (SHA-1 and
/// SHA-256) once per profile — 0.24 s of a cold ingest of the benchmark tree, for 250 distinct
/// certificates. Only certificates that decode are kept. Bounded; thread-safe (ingest decodes on
/// two threads), like ``ChainCache``.
///
/// A lock rather than `Mutex`: `Synchronization` needs macOS 15, the package supports 13.
final class DeveloperCertificateCache: @unchecked Sendable {
    static let shared = DeveloperCertificateCache()

    /// Entries kept before the table is emptied (a profile collection has a few hundred).
    static let limit = 4096

    private let lock = NSLock()
    private var certificates: [DERKey: DeveloperCertificate] = [:]

    /// `NSLocking.withLock` needs macOS 14.
    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// The certificate `der` decodes to, decoded at most once while it is kept. Throws as
    /// ``DeveloperCertificate/init(der:)`` does.
    func certificate(_ der: [UInt8]) throws -> DeveloperCertificate {
        let key = DERKey(der)
        if let known = locked({ certificates[key] }) { return known }
        let decoded = try DeveloperCertificate(der: der)
        locked {
            if certificates.count >= Self.limit { certificates.removeAll(keepingCapacity: true) }
            certificates[key] = decoded
        }
        return decoded
    }
}
