import Foundation

/// The threads that decode an ingest's batches, one per core (``DecodeQueue/workers``), at a lower
/// priority than the thread that writes (issue 15).
///
/// On a machine with no more cores than decoders the writer shares a core with them, and it is the
/// thread the run waits for: it writes every row, and builds the indexes alone at the end. At equal
/// priority the scheduler gave it a third of the machine while three threads were runnable, and
/// the decoders, finished early, stopped until it caught up. With the decoders below it, it runs
/// whenever it has work and they take what is left, decoding up to ``Ingester``'s look-ahead in
/// advance. Both cores of the bench host were busy 96 % of the parallel part of a cold ingest of
/// the bench tree, against 89 % before (perf samples per 0.2 s).
///
/// Linux: each thread raises its own nice value by ``niceness`` (per thread there, and allowed to
/// anyone; other processes' threads at the default priority come first too, as befits a cron job).
/// Darwin: the threads run at the utility quality of service.
final class DecodeWorkers: @unchecked Sendable {
    /// How much lower than the writer's the decoders' priority is, as a nice value (Linux).
    static let niceness: Int32 = 8

    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var next = 0
    private var stopping = false
    private var running = 0

    /// Starts `count` threads, which wait for jobs.
    init(count: Int) {
        running = max(count, 1)
        for index in 0..<running {
            let thread = Thread { [self] in
                Self.lowerPriority()
                work()
            }
            thread.name = "catalog-decode-\(index)"
            #if canImport(Darwin)
            thread.qualityOfService = .utility
            #endif
            thread.start()
        }
    }

    /// Runs `job` on the first thread free, after every job given before it has started.
    func run(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
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

    private func work() {
        condition.lock()
        while true {
            if next < jobs.count {
                let job = jobs[next]
                next += 1
                if next == jobs.count {
                    jobs.removeAll(keepingCapacity: true)
                    next = 0
                }
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
