import Foundation

/// The content hashes some worker has started decoding in this run; the first to claim one decodes it.
final class ContentClaims: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = Set<String>()

    /// True for the first caller with this hash, false for every later one.
    func claim(_ sha256: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return claimed.insert(sha256).inserted
    }
}
