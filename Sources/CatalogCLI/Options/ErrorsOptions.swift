/// `catalog errors`'s options: the common ones and `--run N`.
struct ErrorsOptions: CommandOptions {
    var query: QueryOptions
    /// Only the errors this run recorded; nil: every file in error now.
    var runID: Int64?

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        runID = arguments.value("run") == nil ? nil : Int64(try arguments.integer("run", default: 0, range: 1...Int(Int32.max)))
        query = try QueryOptions(arguments, context)
    }
}
