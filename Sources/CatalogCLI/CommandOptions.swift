/// A command's options and arguments, parsed and checked once, before the command runs: the init
/// reads `ParsedArguments` and throws `UsageError` for what the user typed wrong; `run` gets only
/// the result.
protocol CommandOptions {
    /// Every option the init reads, in help order: the command's only list of its options.
    static var declared: [any OptionHandle] { get }
    init(_ arguments: ParsedArguments, _ context: CommandContext) throws
}
