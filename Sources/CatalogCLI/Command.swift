import Foundation

/// One `catalog` subcommand: its help text, its options, and `run`, which returns the exit status.
/// Commands print data to `context.out` and diagnostics to `context.err`.
protocol Command {
    static var name: String { get }
    static var abstract: String { get }
    static var discussion: String? { get }
    static var arguments: [ArgumentSpec] { get }
    static var options: [OptionSpec] { get }
    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32
}

extension Command {
    static var discussion: String? { nil }

    /// Every option plus the ones all commands share.
    static var allOptions: [OptionSpec] { options + [Self.helpOption] }

    static var helpOption: OptionSpec { OptionSpec(name: "help", short: "h", help: "Show help information.") }

    static var usage: String {
        var parts = ["catalog", name]
        for option in options {
            let body = option.value.map { "--\(option.name) <\($0)>" } ?? "--\(option.name)"
            parts.append(option.repeatable ? "[\(body) ...]" : "[\(body)]")
        }
        for argument in arguments {
            let body = "<\(argument.name)>" + (argument.variadic ? " ..." : "")
            parts.append(argument.optional ? "[\(body)]" : body)
        }
        return parts.joined(separator: " ")
    }

    static var help: String {
        var text = "OVERVIEW: \(abstract)\n"
        if let discussion { text += "\n\(discussion)\n" }
        text += "\nUSAGE: \(usage)\n"
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in arguments {
                text += HelpText.row("<\(argument.name)>", argument.help)
            }
        }
        text += "\nOPTIONS:\n"
        for option in allOptions {
            var label = option.short.map { "-\($0), " } ?? ""
            label += "--\(option.name)"
            if let value = option.value { label += " <\(value)>" }
            text += HelpText.row(label, option.help)
        }
        return text
    }
}

enum HelpText {
    static func row(_ label: String, _ help: String) -> String {
        let padded = label.count < 28 ? label.padding(toLength: 28, withPad: " ", startingAt: 0) : label + "\n" + String(repeating: " ", count: 30)
        return "  " + padded + help.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: 30)) + "\n"
    }
}

/// Where a command writes and what it may know of its surroundings (tests pass their own).
final class CommandContext {
    let environment: [String: String]
    private(set) var output = OutputBuffer(FileHandle.standardOutput)
    private(set) var errors = OutputBuffer(FileHandle.standardError)
    let stdoutIsTerminal: Bool
    let stderrIsTerminal: Bool

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
        stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
        stderrIsTerminal = isatty(STDERR_FILENO) == 1
    }

    func out(_ text: String) { output.write(text) }
    func err(_ text: String) { errors.write(text) }
    func flush() {
        output.flush()
        errors.flush()
    }
}

/// Buffers writes to a file handle and flushes in large chunks; stdout goes to pipes in scripts.
struct OutputBuffer {
    private let handle: FileHandle
    private var pending: [UInt8] = []

    init(_ handle: FileHandle) { self.handle = handle }

    mutating func write(_ text: String) {
        pending.append(contentsOf: text.utf8)
        if pending.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !pending.isEmpty else { return }
        pending.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(handle.fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 { if errno == EINTR { continue }; break }
                offset += written
            }
        }
        pending.removeAll(keepingCapacity: true)
    }
}
