import Foundation

/// Where a command writes and what it may know of its surroundings (tests pass their own).
final class CommandContext {
    let environment: [String: String]
    private(set) var output = OutputBuffer(FileHandle.standardOutput, widensPipe: true)
    private(set) var errors = OutputBuffer(FileHandle.standardError)
    let stdoutIsTerminal: Bool
    let stderrIsTerminal: Bool
    /// `--width N` (0: no limit), when given.
    var widthOverride: Int?

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
        stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
        stderrIsTerminal = isatty(STDERR_FILENO) == 1
    }

    func out(_ text: String) { output.write(text) }
    func out(_ bytes: [UInt8]) { output.write(bytes) }
    func err(_ text: String) { errors.write(text) }
    func flush() {
        output.flush()
        errors.flush()
    }
}
