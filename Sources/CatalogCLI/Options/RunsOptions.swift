/// `catalog runs`'s options: the common ones and `--limit`.
struct RunsOptions: CommandOptions {
    var query: QueryOptions
    /// At most this many runs, newest first (default 20).
    var limit: Int

    static let limitOption = ValueOption(name: "limit", value: "n", help: "At most N runs (default 20).")
    static let declared = QuerySupport.commonOptions + [limitOption, QuerySupport.hostOption]

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        limit = try arguments.integer(Self.limitOption, default: 20, range: 1...Int(Int32.max))
        query = try QueryOptions(arguments, context)
    }
}
