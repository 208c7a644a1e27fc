/// `catalog decode`'s options: JSON (default) or a readable summary, and the files.
struct DecodeOptions: CommandOptions {
    /// `.json` or `.table`; decode has no other formats.
    var format: OutputFormat
    var paths: [String]

    static let formatOption = ValueOption(name: "format", value: "format", help: "json (default) or table.", choices: ["json", "table"])
    static let declared: [any OptionHandle] = [formatOption, OutputFormat.jsonFlag]

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let text = try arguments.choice(Self.formatOption) ?? "json"
        if arguments[OutputFormat.jsonFlag], text != "json" { throw UsageError(message: "--json conflicts with --format \(text)") }
        format = text == "table" ? .table : .json
        paths = arguments.positionals
    }
}
