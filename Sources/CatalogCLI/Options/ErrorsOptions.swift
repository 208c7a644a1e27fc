/// `catalog errors`'s options: the common ones and `--run N`.
struct ErrorsOptions: CommandOptions {
    var query: QueryOptions
    /// Only the errors this run recorded; nil: every file in error now.
    var runID: Int64?

    static let run = ValueOption(name: "run", value: "n", help: "Only the errors run N recorded (see 'catalog runs').")
    static let declared = QuerySupport.commonOptions + [run, QuerySupport.hostOption]

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        runID = arguments.value(Self.run) == nil ? nil : Int64(try arguments.integer(Self.run, default: 0, range: 1...Int(Int32.max)))
        query = try QueryOptions(arguments, context)
    }
}
