import CatalogTestSupport
import Foundation
import Testing

/// Listings stream through a 1 MB pipe (OutputBuffer): with Linux's default 64 KB the writer waited
/// for the reader to empty the pipe at every flush.
@Suite(.timeLimit(.minutes(10)), .enabled(if: PipeSizes.canWiden, "needs Linux with a pipe-max-size of at least 1 MB (F_SETPIPE_SZ)"))
struct OutputPipeTests {
    @Test func standardOutputIsWidenedAndStandardErrorIsNot() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CatalogProcess.executable)
        process.arguments = ["completions", "bash"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let defaultSize = fcntl(err.fileHandleForReading.fileDescriptor, PipeSizes.get)
        try process.run()
        let printed = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: printed, as: UTF8.self).contains("complete"))
        // The read ends see the pipes' sizes as the child left them.
        #expect(fcntl(out.fileHandleForReading.fileDescriptor, PipeSizes.get) == 1 << 20)
        #expect(fcntl(err.fileHandleForReading.fileDescriptor, PipeSizes.get) == defaultSize)
        #expect(defaultSize > 0 && defaultSize < 1 << 20)
    }
}

enum PipeSizes {
    /// F_GETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 8), which Glibc's module does not export.
    static let get: Int32 = 1024 + 8

    /// Whether an unprivileged process may ask for a 1 MB pipe here.
    static var canWiden: Bool {
        #if os(Linux)
        let limit = (try? String(contentsOfFile: "/proc/sys/fs/pipe-max-size", encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return (limit ?? 0) >= 1 << 20
        #else
        return false
        #endif
    }
}
