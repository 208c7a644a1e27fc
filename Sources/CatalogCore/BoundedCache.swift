import Foundation

/// A thread-safe memo of values by key, emptied when it reaches `limit` entries: what the decoders'
/// caches share (``ChainCache``, ``DeveloperCertificateCache``). A value is made outside the lock, so
/// two threads may both make one the first time; either result is kept. A failure is not kept.
///
/// A lock rather than `Mutex`: `Synchronization` needs macOS 15, the package supports 13.
final class BoundedCache<Key: Hashable, Value>: @unchecked Sendable {
    let limit: Int
    private let lock = NSLock()
    private var values: [Key: Value] = [:]

    init(limit: Int) { self.limit = limit }

    /// `NSLocking.withLock` needs macOS 14.
    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// The value kept for `key`, else what `make` returns, which is then kept.
    func value(for key: Key, make: () throws -> Value) rethrows -> Value {
        if let known = locked({ values[key] }) { return known }
        let made = try make()
        locked {
            if values.count >= limit { values.removeAll(keepingCapacity: true) }
            values[key] = made
        }
        return made
    }
}
