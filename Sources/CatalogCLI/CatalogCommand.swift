import Foundation

/// The `catalog` entry point: parses the subcommand, runs it and exits with its status —
/// 0 success, 1 failure, 2 `expiring --exit-code` found something, 64 usage error (`ExitStatus`).
public enum CatalogCommand {
    static let version = "0.1.0"

    static var commands: [any Command.Type] { [
        IngestCommand.self,
        ExpiringCommand.self,
        ProfilesCommand.self,
        ShowCommand.self,
        BuildsCommand.self,
        VersionsCommand.self,
        CertificatesCommand.self,
        DevicesCommand.self,
        RunsCommand.self,
        ErrorsCommand.self,
        StatsCommand.self,
        DecodeCommand.self,
    ] }

    static let overview = """
        OVERVIEW: Index Apple provisioning profiles and app builds into SQLite and query them.

        USAGE: catalog <subcommand>

        OPTIONS:
          --version                   Show the version.
          -h, --help                  Show help information.

        SUBCOMMANDS:
        """

    public static func main() {
        let context = CommandContext()
        let status = run(Array(CommandLine.arguments.dropFirst()), context)
        context.flush()
        exit(status)
    }

    static func run(_ arguments: [String], _ context: CommandContext) -> Int32 {
        guard let first = arguments.first else {
            context.err(mainHelp)
            return ExitStatus.usage
        }
        switch first {
        case "-h", "--help":
            context.out(mainHelp)
            return 0
        case "--version":
            context.out(version + "\n")
            return 0
        case "help":
            guard arguments.count > 1 else { context.out(mainHelp); return 0 }
            guard let command = command(named: arguments[1]) else {
                return usageError("unknown subcommand '\(arguments[1])'", usage: "catalog <subcommand>", hint: "catalog --help", context)
            }
            context.out(command.help)
            return 0
        default:
            break
        }
        guard let command = command(named: first) else {
            return usageError("unknown subcommand '\(first)'", usage: "catalog <subcommand>", hint: "catalog --help", context)
        }
        let rest = Array(arguments.dropFirst())
        // -h/--help anywhere before a `--` asks for help.
        if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) {
            context.out(command.help)
            return 0
        }
        do {
            let parsed = try ParsedArguments.parse(rest, options: command.options, positionals: command.arguments)
            return try command.run(parsed, context)
        } catch let error as UsageError {
            return usageError(error.message, usage: command.usage, hint: "catalog \(command.name) --help", context)
        } catch {
            context.err("error: \(TextSanitizer.terminalSafe(String(describing: error)))\n")
            return ExitStatus.failure
        }
    }

    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.name == name }
    }

    static var mainHelp: String {
        overview + "\n" + commands.map { HelpText.row($0.name, $0.abstract) }.joined()
            + "\n  See 'catalog help <subcommand>' for detailed help.\n"
    }

    static func usageError(_ message: String, usage: String, hint: String, _ context: CommandContext) -> Int32 {
        context.err("Error: \(message)\nUsage: \(usage)\n  See '\(hint)' for more information.\n")
        return ExitStatus.usage
    }
}
