import Foundation

/// The next index of a batch for the workers decoding it: each takes one item at a time, so a worker
/// that drew an `.ipa` does not hold up the others, and every result keeps its index.
final class DecodeQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private let count: Int

    init(count: Int) {
        self.count = count
    }

    /// The next undecoded index, or nil when the batch is all taken.
    func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < count else { return nil }
        defer { next += 1 }
        return next
    }

    /// How many threads decode a batch: one per core, at most four. Where that leaves the writer no
    /// core of its own, the decoders run below its priority (``DecodeWorkers``).
    static let workers = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
}
