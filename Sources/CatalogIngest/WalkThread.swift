import CatalogStore
import Foundation

/// Walks one root on a thread of its own and stats each candidate there, so the writing thread only
/// consumes the results (the walk's system calls would otherwise hold up the writer), and
/// compares them with the incremental index (``classify(_:stamps:)``), which it reads while the walk
/// has already begun. Results come through ``channel`` in walk order.
/// Kept for speed: cold ingest and unchanged ingest (bench.py).
final class WalkThread: @unchecked Sendable {
    /// What the walk made of one candidate.
    enum Walked: Sendable {
        /// Gone between the listing and the stat.
        case vanished(String)
        /// Same size and mtime as the index says, and not in error: not read again. `skipped`: the
        /// run that read it left it out on purpose (an Info.plist not an app's).
        case unchanged(String, skipped: Bool)
        /// What the stat found; ``classify(_:stamps:)`` tells whether it changed.
        case changed(Candidate, CatalogWriter.FileStamp)
    }

    /// Room for the walk to go on while the writing thread reads the index and what the catalogue
    /// holds under the root, yet small enough that a huge tree waits as a bounded number of paths.
    let channel = WalkChannel<Walked>(capacity: 256)
    private var walker: TreeWalker
    private let done = DispatchSemaphore(value: 0)
    private var joined = false

    private struct Stopped: Error {}

    init(root: String, excludes: [String]) {
        walker = TreeWalker(excludes: excludes)
        let thread = Thread { [self] in
            var chunk: [Walked] = []
            chunk.reserveCapacity(64)
            do {
                try walker.walk(root) { candidate in
                    chunk.append(Self.stat(candidate))
                    if chunk.count >= 64 {
                        guard channel.put(chunk) else { throw Stopped() }
                        chunk.removeAll(keepingCapacity: true)
                    }
                }
                if !chunk.isEmpty { _ = channel.put(chunk) }
            } catch {
                // Stopped by the writing thread: it has failed and no longer reads.
            }
            channel.finish()
            done.signal()
        }
        thread.stackSize = 8 << 20  // the walk recurses per folder level (64 at most)
        thread.start()
    }

    private static func stat(_ candidate: Candidate) -> Walked {
        guard let stamp = CatalogWriter.FileStamp.of(candidate: candidate) else { return .vanished(candidate.path) }
        return .changed(candidate, stamp)
    }

    /// A stat'd candidate with the same size and mtime as the index says, and not in error, is
    /// unchanged: it is not read again.
    static func classify(_ item: Walked, stamps: [String: CatalogWriter.FileStamp]) -> Walked {
        guard case .changed(let candidate, let stamp) = item, let known = stamps[candidate.path],
              known.status != .error, known.size == stamp.size,
              known.mtimeNanoseconds == stamp.mtimeNanoseconds else { return item }
        return .unchanged(candidate.path, skipped: known.status == .skipped)
    }

    /// Waits for the walk to end (every chunk taken) and returns the walker, with its problems.
    func finished() -> TreeWalker {
        join()
        return walker
    }

    /// Stops the walk if it is still going and waits for its thread.
    func stop() {
        channel.cancel()
        join()
    }

    private func join() {
        guard !joined else { return }
        done.wait()
        joined = true
    }
}
