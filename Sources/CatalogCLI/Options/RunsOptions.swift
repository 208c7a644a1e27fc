/// `catalog runs`'s options: the common ones and `--limit`.
struct RunsOptions: CommandOptions {
    var query: QueryOptions
    /// At most this many runs, newest first (default 20).
    var limit: Int

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        limit = try arguments.integer("limit", default: 20, range: 1...Int(Int32.max))
        query = try QueryOptions(arguments, context)
    }
}
