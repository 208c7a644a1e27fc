import Foundation

/// Threads whose stack size the test chooses. Swift Testing runs tests on threads of the platform's
/// default size (512 KiB on macOS, `ulimit -s` on Linux), so a test that recurses as deep as the
/// decoders may (up to their depth limits) runs on a thread of the size the code gives its own.
public enum ThreadOfKnownSize {
    private final class Outcome<T>: @unchecked Sendable {
        var result: Result<T, any Error>?
    }

    /// Runs `body` on a new thread with `stackSize` bytes of stack, waits for it and returns what it
    /// returned (or throws what it threw).
    public static func run<T>(stackSize: Int, _ body: @escaping () throws -> T) throws -> T {
        let outcome = Outcome<T>()
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let body = body
        let thread = Thread {
            outcome.result = Result { try body() }
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
        return try outcome.result!.get()
    }

    /// The stack size of the calling thread, as the system reports it.
    public static func currentStackSize() -> Int {
        #if canImport(Darwin)
        return pthread_get_stacksize_np(pthread_self())
        #else
        // glibc declares pthread_getattr_np only under _GNU_SOURCE, which Swift's Glibc module lacks.
        typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np") else { return 0 }
        let getAttributes = unsafeBitCast(symbol, to: GetAttributes.self)
        var attributes = pthread_attr_t()
        guard getAttributes(pthread_self(), &attributes) == 0 else { return 0 }
        defer { pthread_attr_destroy(&attributes) }
        var size = 0
        pthread_attr_getstacksize(&attributes, &size)
        return size
        #endif
    }
}
