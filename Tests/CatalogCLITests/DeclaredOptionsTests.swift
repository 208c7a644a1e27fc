import Foundation
import Testing
@testable import CatalogCLI

/// Each command's options are one declaration: its options struct reads exactly what it declares,
/// its help wraps the usage and ends with examples that parse.
@Suite struct DeclaredOptionsTests {
    /// A value the option accepts, as a user would type it.
    static func sample(_ option: OptionSpec) -> String {
        if let first = option.choices?.first { return first }
        switch option.value {
        case "n": return "1"
        case "date": return "2026-12-01"
        case "duration": return "36h"
        case "path": return "/tmp/catalog-declared-options.sqlite"
        case "file": return "/tmp/catalog-declared-options.html"
        case "name": return "build-07"
        default: return "x"
        }
    }

    /// The command's required arguments, each a value it accepts.
    static func positionals(_ command: any Command.Type) -> [String] {
        command.arguments.filter { !$0.optional }.map { $0.choices?.first ?? "x" }
    }

    /// What `command`'s options struct read from `arguments`; a usage error is fine (some options
    /// need another), any other error is not.
    static func reads(_ command: any Command.Type, _ arguments: [String]) throws -> ParsedArguments.Reads {
        let parsed = try ParsedArguments.parse(arguments + positionals(command), options: command.options,
                                               positionals: command.arguments)
        do {
            _ = try command.parseOptions(parsed, CommandContext(environment: [:]))
        } catch is UsageError {}
        return parsed.reads
    }

    @Test func everyCommandReadsEveryOptionItDeclaresAndNoOther() throws {
        for command in CatalogCommand.commands {
            var read = try Self.reads(command, []).read
            for option in command.options {
                let given = option.value == nil ? ["--\(option.name)"] : ["--\(option.name)", Self.sample(option)]
                let reads = try Self.reads(command, given)
                #expect(reads.undeclared.isEmpty, "catalog \(command.name) \(given) read undeclared \(reads.undeclared)")
                read.formUnion(reads.read)
            }
            let ignored = command.options.map(\.name).filter { !read.contains($0) }
            #expect(ignored.isEmpty, "catalog \(command.name) declares but never reads \(ignored)")
            #expect(Set(command.options.map(\.name)).count == command.options.count, "catalog \(command.name) declares an option twice")
        }
    }

    /// Options that read a handle their command does not declare.
    struct MisspeltOptions: CommandOptions {
        static let declared: [any OptionHandle] = [OutputFormat.jsonFlag]
        var builds: Bool

        init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
            builds = arguments[ExpiringOptions.buildsFlag]
        }
    }

    enum MisspeltCommand: Command {
        static let name = "misspelt"
        static let abstract = "Reads an option it does not declare."
        static let arguments: [ArgumentSpec] = []
        static let examples = ["catalog misspelt"]
        static func run(_ options: MisspeltOptions, _ context: CommandContext) throws -> Int32 { 0 }
    }

    @Test func readingAnUndeclaredOptionFails() throws {
        let parsed = try ParsedArguments.parse(["--json"], options: MisspeltCommand.options, positionals: [])
        #expect(throws: CLIError.self) { _ = try MisspeltCommand.parseAndRun(parsed, CommandContext(environment: [:])) }
        #expect(parsed.reads.undeclared == ["builds"])
    }

    @Test func usageWrapsUnderTheFirstOption() throws {
        let usage = ProfilesCommand.usage(width: 60)
        let lines = usage.split(separator: "\n").map(String.init)
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.count <= 60 })
        #expect(lines[0].hasPrefix("USAGE: catalog profiles [--db <path>]"))
        let indent = String(repeating: " ", count: "USAGE: catalog profiles ".count)
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(indent + "[") || $0.hasPrefix(indent + "<") })
        // Unwrapped, the words are the one-line usage usage errors print.
        #expect(lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") == "USAGE: " + ProfilesCommand.usage)
        // Off a terminal the help wraps at 80.
        let help = ProfilesCommand.help.split(separator: "\n", omittingEmptySubsequences: false)
        let usageLines = help.drop { !$0.hasPrefix("USAGE: ") }.prefix { !$0.isEmpty }
        #expect(usageLines.count > 1)
        #expect(usageLines.allSatisfy { $0.count <= 80 })
    }

    /// Splits an example as a shell would, for the simple quoting examples use; stops at a redirection.
    static func words(_ example: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quoted = false
        var inWord = false
        for character in example {
            if character == "'" {
                quoted.toggle()
                inWord = true
            } else if character == " " && !quoted {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return Array(words.prefix { $0 != ">" })
    }

    @Test func everyHelpEndsWithExamplesThatParse() throws {
        for command in CatalogCommand.commands {
            #expect((1...3).contains(command.examples.count), "catalog \(command.name) has \(command.examples.count) examples")
            #expect(command.help.contains("\nEXAMPLES:\n" + command.examples.map { "  \($0)\n" }.joined()))
            #expect(command.help.hasSuffix(command.examples.map { "  \($0)\n" }.joined()))
            for example in command.examples {
                let words = Self.words(example)
                #expect(Array(words.prefix(2)) == ["catalog", command.name], "\(example)")
                #expect(throws: Never.self, "\(example)") {
                    let parsed = try ParsedArguments.parse(Array(words.dropFirst(2)), options: command.options,
                                                           positionals: command.arguments)
                    _ = try command.parseOptions(parsed, CommandContext(environment: [:]))
                }
            }
        }
    }
}
