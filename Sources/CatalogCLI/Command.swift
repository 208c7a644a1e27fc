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
    static var options: [OptionSpec] { get }
    static func run(_ options: Options, _ context: CommandContext) throws -> Int32
}

extension Command {
    static var discussion: String? { nil }

    /// Every option plus the ones all commands share.
    static var allOptions: [OptionSpec] { options + [Self.helpOption] }

    static var helpOption: OptionSpec { OptionSpec(name: "help", short: "h", help: "Show help information.") }

    /// Parses `arguments` into the command's options (usage errors thrown before anything runs),
    /// then runs it.
    static func parseAndRun(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        try run(Options(arguments, context), context)
    }

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
