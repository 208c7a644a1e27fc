import CatalogCore
import Foundation

/// The `catalog` entry point: parses the subcommand, runs it and exits with its status —
/// 0 success, 1 failure, 2 `expiring --exit-code` found something, 64 usage error (`ExitStatus`).
public enum CatalogCommand {
    static let version = "0.2.0"

    static var commands: [any Command.Type] { [
        IngestCommand.self,
        ExpiringCommand.self,
        ProfilesCommand.self,
        ShowCommand.self,
        BuildsCommand.self,
        VersionsCommand.self,
        CertificatesCommand.self,
        DevicesCommand.self,
        PruneCommand.self,
        ReportCommand.self,
        RunsCommand.self,
        CrashCommand.self,
        ErrorsCommand.self,
        StatsCommand.self,
        DecodeCommand.self,
        CompletionsCommand.self,
        VerifyCommand.self,
        InstallCommand.self,
    ] }

    /// The main help's head, wrapped to `width` as the rest is.
    static func overview(width: Int) -> String {
        HelpText.wrap("OVERVIEW: Index Apple provisioning profiles and app builds into SQLite and query them.", width: width)
            .joined(separator: "\n") + "\n\nUSAGE: catalog [--db <path>] [--format <format>] [--width <n>] <subcommand>\n\nOPTIONS:\n"
            + HelpText.row("--db <path>", "The catalogue (also after the subcommand; default $CATALOG_DB).", width: width)
            + HelpText.row("--format <format>, --json", "Output format of query commands (also after the subcommand).", width: width)
            + HelpText.row("--width <n>", "Fit tables to N columns, 0 for no limit (also after the subcommand).", width: width)
            + HelpText.row("--version", "Show the version.", width: width)
            + HelpText.row("-h, --help", "Show help information.", width: width)
            + "\nSUBCOMMANDS:\n"
    }

    /// Runs the command on a thread with the stack decoding needs (``DecodingStack``), as the main
    /// thread's is whatever `ulimit -s` gave the process.
    public static func main() {
        let thread = Thread {
            let context = CommandContext()
            let status = run(Array(CommandLine.arguments.dropFirst()), context)
            context.flush()
            exit(status)
        }
        thread.name = "catalog"
        thread.stackSize = DecodingStack.size
        thread.start()
        // The command thread ends the process with exit(3); this thread only waits for it.
        while true { pause() }
    }

    /// Options every command that reads the catalogue takes, accepted before the subcommand too
    /// (`catalog --db X expiring`, as `git -C` or `gh -R`).
    static let globalOptions: [OptionSpec] = ([CatalogueLocation.option] + OutputFormat.options).map(\.spec)

    static func run(_ arguments: [String], _ context: CommandContext) -> Int32 {
        let (global, arguments) = splitGlobalOptions(arguments)
        // `catalog --help expiring` is `catalog help expiring`.
        if let first = arguments.first, first == "-h" || first == "--help", arguments.count > 1 {
            return run(["help"] + arguments.dropFirst(), context)
        }
        if !global.isEmpty {
            guard let first = arguments.first, !first.hasPrefix("-") else {
                return usageError("options before the subcommand need a subcommand after them", usage: "catalog [--db <path>] [--format <format>] <subcommand>", hint: "catalog --help", context)
            }
            return run([first] + global + arguments.dropFirst(), context)
        }
        guard let first = arguments.first else {
            context.err(mainHelp)
            return ExitStatus.usage
        }
        switch first {
        case "-h", "--help":
            context.out(mainHelp(width: context.helpWidth))
            return 0
        case "--version":
            context.out(version + "\n")
            return 0
        case "help":
            guard arguments.count > 1 else { context.out(mainHelp(width: context.helpWidth)); return 0 }
            if arguments[1] == "--markdown" {
                context.out(markdownReference)
                return 0
            }
            guard let command = command(named: arguments[1]) else { return unknownSubcommand(arguments[1], context) }
            context.out(command.help(width: context.helpWidth))
            return 0
        default:
            break
        }
        guard let command = command(named: first) else { return unknownSubcommand(first, context) }
        let rest = Array(arguments.dropFirst())
        // -h/--help anywhere before a `--` asks for help.
        if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) {
            context.out(command.help(width: context.helpWidth))
            return 0
        }
        do {
            let parsed = try ParsedArguments.parse(rest, options: command.options, positionals: command.arguments)
            return try command.parseAndRun(parsed, context)
        } catch let error as UsageError {
            return usageError(error.message, usage: command.usage, hint: "catalog \(command.name) --help", context)
        } catch let error as CLIError {
            context.err("error: \(TextSanitizer.terminalSafe(error.description))\n")
            for line in error.details { context.err("  \(TextSanitizer.terminalSafe(line))\n") }
            return ExitStatus.failure
        } catch {
            context.err("error: \(TextSanitizer.terminalSafe(String(describing: error)))\n")
            return ExitStatus.failure
        }
    }

    /// Leading global options (with their values) and the arguments after them.
    static func splitGlobalOptions(_ arguments: [String]) -> (global: [String], rest: [String]) {
        var index = 0
        while index < arguments.count, arguments[index].hasPrefix("--") {
            let body = arguments[index].dropFirst(2)
            let name = body.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            guard let option = globalOptions.first(where: { $0.name == name }) else { break }
            index += (option.value != nil && !body.contains("=")) ? 2 : 1
        }
        index = min(index, arguments.count)
        return (Array(arguments[..<index]), Array(arguments[index...]))
    }

    static func unknownSubcommand(_ name: String, _ context: CommandContext) -> Int32 {
        usageError("unknown subcommand '\(name)'" + Suggestion.hint(for: name, among: commands.map { $0.name }),
                   usage: "catalog <subcommand>", hint: "catalog --help", context)
    }

    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.name == name }
    }

    static var mainHelp: String { mainHelp(width: 80) }

    static func mainHelp(width: Int) -> String {
        overview(width: width) + commands.map { HelpText.row($0.name, $0.abstract, width: width) }.joined()
            + "\n  See 'catalog help <subcommand>' for detailed help.\n"
    }

    /// Every command's help as one Markdown page: `docs/cli.md`, written by
    /// `Scripts/generate-cli-reference.sh` (a test checks it is current).
    static var markdownReference: String {
        var text = "# `catalog` command reference\n\n"
            + "Generated from the commands' `--help` by `Scripts/generate-cli-reference.sh` (`catalog help --markdown`);\n"
            + "a test fails when it is stale.\n\n## `catalog`\n\n```text\n" + mainHelp + "```\n"
        for command in commands {
            text += "\n## `catalog \(command.name)`\n\n```text\n" + command.help + "```\n"
        }
        return text
    }

    static func usageError(_ message: String, usage: String, hint: String, _ context: CommandContext) -> Int32 {
        context.err("Error: \(message)\nUsage: \(usage)\n  See '\(hint)' for more information.\n")
        return ExitStatus.usage
    }
}
