import Foundation
import CatalogCore

/// One option a command accepts.
struct OptionSpec: Sendable {
    /// Long name without dashes (`days`); the option is written `--days`.
    var name: String
    /// One-letter alias without the dash (`d` for `-d`), if any.
    var short: Character? = nil
    /// The placeholder of the value (`N`, `DATE`); nil for a flag.
    var value: String? = nil
    var repeatable: Bool = false
    var help: String
    /// The values an enumerated option accepts, for shell completions (and `choice`).
    var choices: [String]? = nil
}

/// A positional argument, for help and arity checks.
struct ArgumentSpec: Sendable {
    var name: String
    var help: String
    var optional: Bool = false
    var variadic: Bool = false
    /// The values it accepts, when enumerated (shells complete them); else it names a file or text.
    var choices: [String]? = nil
}

/// A command-line mistake: printed as `Error: …`, the usage line and a hint; exit 64.
struct UsageError: Error {
    var message: String
}

/// An option declared once, in the list of the options struct that reads it (``CommandOptions/declared``):
/// help, parsing, completions, suggestions and docs/cli.md all come from that list.
protocol OptionHandle: Sendable {
    var spec: OptionSpec { get }
}

/// An option without a value (`--full`), read as `arguments[flag]`.
struct Flag: OptionHandle {
    let spec: OptionSpec

    init(name: String, short: Character? = nil, help: String) {
        spec = OptionSpec(name: name, short: short, help: help)
    }
}

/// An option with a value (`--days N`), read with ``ParsedArguments/value(_:)`` and its kin.
struct ValueOption: OptionHandle {
    let spec: OptionSpec

    init(name: String, short: Character? = nil, value: String, repeatable: Bool = false, help: String,
         choices: [String]? = nil) {
        spec = OptionSpec(name: name, short: short, value: value, repeatable: repeatable, help: help, choices: choices)
    }
}

/// The options and positional arguments given to one command. It is read only through handles; a
/// handle the command did not declare is a programmer error, recorded in ``reads`` (the command then
/// fails, and a test reads every command's options to catch it first).
struct ParsedArguments {
    /// What a command's options struct read: shared by copies, so the caller sees the init's reads.
    final class Reads {
        /// Names of the options read, declared or not.
        var read: Set<String> = []
        /// Names of the options read that the command does not declare.
        var undeclared: [String] = []
    }

    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    var positionals: [String] = []
    /// The names of the options the command declares.
    private(set) var declared: Set<String> = []
    let reads = Reads()

    /// Whether the command declares `option` (shared readers such as ``QueryOptions`` read only those).
    func declares(_ option: some OptionHandle) -> Bool { declared.contains(option.spec.name) }

    private func note(_ option: some OptionHandle) -> String {
        let name = option.spec.name
        reads.read.insert(name)
        if !declared.contains(name) { reads.undeclared.append(name) }
        return name
    }

    subscript(_ flag: Flag) -> Bool { flags.contains(note(flag)) }
    func value(_ option: ValueOption) -> String? { values[note(option)]?.last }
    func all(_ option: ValueOption) -> [String] { values[note(option)] ?? [] }

    /// Whether `option` was given at all, flag or value.
    func given(_ option: any OptionHandle) -> Bool {
        let name = note(option)
        return flags.contains(name) || values[name] != nil
    }

    func integer(_ option: ValueOption, default fallback: Int, range: ClosedRange<Int> = 0...1_000_000) throws -> Int {
        guard let text = value(option) else { return fallback }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(message: "--\(option.spec.name) expects a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return number
    }

    func date(_ option: ValueOption) throws -> Date? {
        guard let text = value(option) else { return nil }
        guard let date = ISO8601.parse(text) else {
            throw UsageError(message: "--\(option.spec.name) expects an ISO-8601 date like 2026-11-29 or 2026-11-29T10:00:00Z, got '\(text)'")
        }
        return date
    }

    /// One of two opposite flags: true for `--yes`, false for `--no`, nil for neither; both is a
    /// usage error (`--expired`/`--valid`, `--superseded`/`--current`).
    func either(_ yes: Flag, or no: Flag) throws -> Bool? {
        switch (self[yes], self[no]) {
        case (true, true): throw UsageError(message: "--\(yes.spec.name) and --\(no.spec.name) exclude each other")
        case (true, false): return true
        case (false, true): return false
        case (false, false): return nil
        }
    }

    /// The value of an enumerated option, one of its declared `choices`.
    func choice(_ option: ValueOption) throws -> String? {
        guard let text = value(option) else { return nil }
        let allowed = option.spec.choices ?? []
        guard allowed.contains(text) else {
            throw UsageError(message: "--\(option.spec.name) must be one of \(allowed.joined(separator: ", ")), got '\(text)'")
        }
        return text
    }

    /// Splits `arguments` by `options`: `--opt v`, `--opt=v`, `-o v`, flags, `--` ending options.
    static func parse(_ arguments: [String], options: [OptionSpec], positionals: [ArgumentSpec]) throws -> ParsedArguments {
        var result = ParsedArguments()
        result.declared = Set(options.map(\.name))
        var index = 0
        var optionsEnded = false
        func spec(named name: String) throws -> OptionSpec {
            guard let found = options.first(where: { $0.name == name }) else {
                // A format written as its own option (`--markdown`): the option that takes it.
                if let format = options.first(where: { $0.choices?.contains(name) == true }) {
                    throw UsageError(message: "unknown option '--\(name)': did you mean '--\(format.name) \(name)'?")
                }
                throw UsageError(message: "unknown option '--\(name)'"
                                 + Suggestion.hint(for: name, among: options.map(\.name) + ["help"], prefix: "--"))
            }
            return found
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name: String
            var inline: String?
            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                if let equals = body.firstIndex(of: "=") {
                    name = String(body[..<equals])
                    inline = String(body[body.index(after: equals)...])
                } else {
                    name = String(body)
                }
            } else {
                guard argument.count == 2, let letter = argument.last,
                      let found = options.first(where: { $0.short == letter }) else {
                    throw UsageError(message: "unknown option '\(argument)'")
                }
                name = found.name
            }
            let option = try spec(named: name)
            if option.value != nil {
                let value: String
                if let inline {
                    value = inline
                } else {
                    guard index < arguments.count else {
                        throw UsageError(message: "missing value for '--\(name)'")
                    }
                    value = arguments[index]
                    index += 1
                }
                if !option.repeatable, result.values[name] != nil {
                    throw UsageError(message: "'--\(name)' given more than once")
                }
                result.values[name, default: []].append(value)
            } else {
                if inline != nil { throw UsageError(message: "'--\(name)' takes no value") }
                result.flags.insert(name)
            }
        }
        let required = positionals.filter { !$0.optional }.count
        if result.positionals.count < required, let missing = positionals.dropFirst(result.positionals.count).first {
            throw UsageError(message: "missing argument <\(missing.name)>")
        }
        if !positionals.contains(where: \.variadic), result.positionals.count > positionals.count {
            throw UsageError(message: "unexpected argument '\(result.positionals[positionals.count])'")
        }
        return result
    }
}
