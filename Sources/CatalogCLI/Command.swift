import Foundation

/// One `catalog` subcommand: its help text, its options, and `run`, which returns the exit status.
/// Commands print data to `context.out` and diagnostics to `context.err`.
protocol Command {
    /// What `run` is given: the command's options, parsed and checked (``parseAndRun(_:_:)``).
    associatedtype Options: CommandOptions
    static var name: String { get }
    static var abstract: String { get }
    static var discussion: String? { get }
    static var arguments: [ArgumentSpec] { get }
    /// 1–3 real invocations, printed at the end of the help.
    static var examples: [String] { get }
    static func run(_ options: Options, _ context: CommandContext) throws -> Int32
}

extension Command {
    static var discussion: String? { nil }

    /// The options, as the options struct declares them.
    static var options: [OptionSpec] { Options.declared.map(\.spec) }

    /// Every option plus the ones all commands share.
    static var allOptions: [OptionSpec] { options + [Self.helpOption] }

    static var helpOption: OptionSpec { OptionSpec(name: "help", short: "h", help: "Show help information.") }

    /// Parses `arguments` into the command's options (usage errors thrown before anything runs),
    /// then runs it.
    static func parseAndRun(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        try run(parseOptions(arguments, context), context)
    }

    /// The options struct read from `arguments`; reading an option the command does not declare
    /// fails (a programmer error: it would otherwise read as absent).
    static func parseOptions(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Options {
        let options = try Options(arguments, context)
        if let undeclared = arguments.reads.undeclared.first {
            throw CLIError("internal error: catalog \(name) read --\(undeclared), which it does not declare")
        }
        return options
    }

    /// The usage on one line, as usage errors print it.
    static var usage: String { usageParts.joined(separator: " ") }

    /// The usage wrapped to `width` columns, continuation lines indented under the first option.
    static func usage(width: Int) -> String {
        let indent = String(repeating: " ", count: "USAGE: catalog \(name) ".count)
        var lines = ["USAGE: catalog \(name)"]
        for (index, part) in usageParts.dropFirst(2).enumerated() {
            if index > 0, lines[lines.count - 1].count + 1 + part.count > width {
                lines.append(indent + part)
            } else {
                lines[lines.count - 1] += " " + part
            }
        }
        return lines.joined(separator: "\n")
    }

    private static var usageParts: [String] {
        var parts = ["catalog", name]
        for option in options {
            let body = option.value.map { "--\(option.name) <\($0)>" } ?? "--\(option.name)"
            parts.append(option.repeatable ? "[\(body) ...]" : "[\(body)]")
        }
        for argument in arguments {
            let body = "<\(argument.name)>" + (argument.variadic ? " ..." : "")
            parts.append(argument.optional ? "[\(body)]" : body)
        }
        return parts
    }

    /// The help as `catalog help` prints it off a terminal and docs/cli.md holds it.
    static var help: String { help(width: 80) }

    static func help(width: Int) -> String {
        var text = HelpText.wrap("OVERVIEW: \(abstract)", width: width).joined(separator: "\n") + "\n"
        if let discussion { text += "\n" + HelpText.wrap(discussion, width: width).joined(separator: "\n") + "\n" }
        text += "\n\(usage(width: width))\n"
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in arguments {
                text += HelpText.row("<\(argument.name)>", argument.help, width: width)
            }
        }
        text += "\nOPTIONS:\n"
        for option in allOptions {
            var label = option.short.map { "-\($0), " } ?? ""
            label += "--\(option.name)"
            if let value = option.value { label += " <\(value)>" }
            text += HelpText.row(label, option.help, width: width)
        }
        text += "\nEXAMPLES:\n"
        for example in examples { text += "  \(example)\n" }
        return text
    }
}
