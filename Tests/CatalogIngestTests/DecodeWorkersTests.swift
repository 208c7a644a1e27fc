import Foundation
import Testing
@testable import CatalogIngest
import CatalogCore
import CatalogTestSupport

/// The decoding threads run every job they are given before `stop` returns, each on the thread it
/// was given to and in the order given, on threads below the caller's priority (Linux: a higher nice
/// value).
@Suite(.timeLimit(.minutes(10)))
struct DecodeWorkersTests {
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var jobs: [Int] = []
        private(set) var niceValues: Set<Int32> = []
        /// The jobs each thread ran, by its pthread, in the order it ran them.
        private(set) var byThread: [String: [Int]] = [:]

        func record(_ job: Int, nice: Int32) {
            lock.lock()
            defer { lock.unlock() }
            jobs.append(job)
            niceValues.insert(nice)
            byThread["\(pthread_self())", default: []].append(job)
        }
    }

    static func niceValue() -> Int32 {
        #if os(Linux)
        return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #else
        return getpriority(PRIO_PROCESS, 0)
        #endif
    }

    @Test func everyJobRunsBeforeStopReturnsOnItsThreadInOrderAtLowerPriority() {
        let log = Log()
        let workers = DecodeWorkers(count: 3)
        for job in 0..<500 {
            workers.run(on: job) {
                if job % 50 == 0 { usleep(1_000) }
                log.record(job, nice: Self.niceValue())
            }
        }
        workers.stop()
        #expect(log.jobs.sorted() == Array(0..<500))
        // Three threads, each of which ran the jobs given to it (`job % 3`), in order.
        #expect(Set(log.byThread.values) == Set((0..<3).map { Array(stride(from: $0, to: 500, by: 3)) }))
        #if os(Linux)
        let expected = min(Self.niceValue() + DecodeWorkers.niceness, 19)
        #expect(log.niceValues == [expected])
        #endif
    }

    /// The decoders' threads get the stack decoding needs, not the platform's default (512 KiB on
    /// macOS; `ulimit -s` on Linux, which `.ci/run` sets to 512 for one run of the suite).
    @Test func eachThreadHasTheDecodingStack() {
        final class Sizes: @unchecked Sendable {
            let lock = NSLock()
            var values: [Int] = []
        }
        let sizes = Sizes()
        let workers = DecodeWorkers(count: 2)
        for job in 0..<2 {
            workers.run(on: job) {
                let size = ThreadOfKnownSize.currentStackSize()
                sizes.lock.lock()
                sizes.values.append(size)
                sizes.lock.unlock()
            }
        }
        workers.stop()
        #expect(sizes.values.count == 2)
        #expect(sizes.values.allSatisfy { $0 >= DecodingStack.size }, "\(sizes.values)")
    }

    @Test func stoppingWithNoJobsEnds() {
        let elapsed = ContinuousClock().measure { DecodeWorkers(count: 2).stop() }
        #expect(elapsed < .seconds(10), "stop waits for idle threads only to end")
    }
}
