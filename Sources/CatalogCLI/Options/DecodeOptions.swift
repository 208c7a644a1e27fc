/// `catalog decode`'s options: JSON (default) or a readable summary, and the files.
struct DecodeOptions: CommandOptions {
    /// `.json` or `.table`; decode has no other formats.
    var format: OutputFormat
    var paths: [String]

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let text = try arguments.choice("format", among: ["json", "table"]) ?? "json"
        if arguments.flag("json"), text != "json" { throw UsageError(message: "--json conflicts with --format \(text)") }
        format = text == "table" ? .table : .json
        paths = arguments.positionals
    }
}
