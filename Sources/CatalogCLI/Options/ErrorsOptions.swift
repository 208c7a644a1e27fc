/// `catalog errors`'s options: the common ones and `--run N`.
struct ErrorsOptions: CommandOptions {
    var query: QueryOptions
    /// Only the errors this run recorded; nil: every file in error now.
    var runID: Int64?
    /// Every error ever recorded (history), not only what is wrong now.
    var all: Bool

    static let run = ValueOption(name: "run", value: "n", help: "Only the errors run N recorded (see 'catalog runs').")
    static let allFlag = Flag(name: "all", help: "Every error ever recorded, newest run first (history), not only what is wrong now.")
    static let declared = QuerySupport.commonOptions + [run, allFlag, QuerySupport.hostOption]

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        runID = arguments.value(Self.run) == nil ? nil : Int64(try arguments.integer(Self.run, default: 0, range: 1...Int(Int32.max)))
        all = arguments[Self.allFlag]
        if all && runID != nil { throw UsageError(message: "--all and --run exclude each other") }
        query = try QueryOptions(arguments, context)
    }
}
