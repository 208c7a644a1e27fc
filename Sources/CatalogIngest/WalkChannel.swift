import Foundation

/// Hands what the walking thread found to the writing thread, in walk order, a chunk at a time; at
/// most `capacity` chunks wait, so a fast walk over a huge tree holds little memory. Either side
/// can stop the other: the writer by `cancel()` (it failed), the walker by `finish()`.
final class WalkChannel<Item: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [[Item]] = []
    private var finished = false
    private var cancelled = false
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Queues a chunk, waiting while the queue is full; false once the reader has cancelled.
    func put(_ chunk: [Item]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count >= capacity && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        chunks.append(chunk)
        condition.broadcast()
        return true
    }

    /// The next chunk, waiting for one; nil when the walker has finished and everything was taken.
    func take() -> [Item]? {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && !finished { condition.wait() }
        guard !chunks.isEmpty else { return nil }
        let chunk = chunks.removeFirst()
        condition.broadcast()
        return chunk
    }

    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    func cancel() {
        condition.lock()
        cancelled = true
        chunks.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
