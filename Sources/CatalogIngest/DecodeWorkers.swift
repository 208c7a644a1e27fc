import CatalogCore
import Foundation

/// The threads that decode an ingest's batches, one per core (``DecodeQueue/workers``), at a lower
/// priority than the thread that writes.
///
/// On a machine with no more cores than decoders the writer shares a core with them, and it is the
/// thread the run waits for: it writes every row, and builds the indexes alone at the end. At equal
/// priority the scheduler gave it a third of the machine while three threads were runnable, and
/// the decoders, finished early, stopped until it caught up. With the decoders below it, it runs
/// whenever it has work and they take what is left, decoding up to ``Ingester``'s look-ahead in
/// advance, so the cores stay busy through the parallel part of a run.
/// Kept for speed: cold ingest (bench.py).
///
/// Linux: each thread raises its own nice value by ``niceness`` (per thread there, and allowed to
/// anyone; other processes' threads at the default priority come first too, as befits a cron job).
/// Darwin: the threads run at the utility quality of service.
final class DecodeWorkers: @unchecked Sendable {
    /// How much lower than the writer's the decoders' priority is, as a nice value (Linux).
    static let niceness: Int32 = 8

    private let condition = NSCondition()
    /// Each thread's jobs, in the order given: thread `i` runs only `queues[i]`.
    private var queues: [[@Sendable () -> Void]]
    private var stopping = false
    private var running: Int

    /// How many threads there are; ``run(on:_:)`` takes an index below it.
    let count: Int

    /// Starts `count` threads, which wait for jobs.
    init(count: Int) {
        self.count = max(count, 1)
        running = self.count
        queues = Array(repeating: [], count: self.count)
        for index in 0..<self.count {
            let thread = Thread { [self] in
                Self.lowerPriority()
                work(index)
            }
            thread.name = "catalog-decode-\(index)"
            thread.stackSize = DecodingStack.size
            #if canImport(Darwin)
            thread.qualityOfService = .utility
            #endif
            thread.start()
        }
    }

    /// Runs `job` on thread `worker` (modulo ``count``), after every job given to it before.
    ///
    /// Each job has its thread, so that what a batch's worker `i` decoded is also freed by the
    /// thread that allocated it (``Ingester`` hands it back once written). Freed on the writing
    /// thread, as before, the decoders' memory went back to their allocator arenas under a lock and
    /// out of their thread caches, and they found no freed chunk of their own to reuse.
    func run(on worker: Int, _ job: @escaping @Sendable () -> Void) {
        condition.lock()
        queues[worker % count].append(job)
        condition.broadcast()
        condition.unlock()
    }

    /// Lets the threads end once the jobs given have run, and waits for them to end.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
    }

    private func work(_ index: Int) {
        condition.lock()
        while true {
            if !queues[index].isEmpty {
                let job = queues[index].removeFirst()
                condition.unlock()
                job()
                condition.lock()
            } else if stopping {
                running -= 1
                condition.broadcast()
                condition.unlock()
                return
            } else {
                condition.wait()
            }
        }
    }

    private static func lowerPriority() {
        #if os(Linux)
        // `who` 0 is the calling thread on Linux. A failure leaves the thread at the writer's
        // priority, which is only slower.
        errno = 0
        let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        if errno == 0 {
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(current + niceness, 19))
        }
        #endif
    }
}
