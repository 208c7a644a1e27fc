/// `catalog crash`'s options: the common ones and the reports (files, folders, `-`).
struct CrashOptions: CommandOptions {
    var query: QueryOptions
    var inputs: [String]

    static let declared = QuerySupport.commonOptions + [QuerySupport.hostOption]

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        inputs = arguments.positionals
        guard !inputs.isEmpty else { throw UsageError(message: "give a crash report (.ips, .crash), a folder of them, or - for stdin") }
        query = try QueryOptions(arguments, context)
    }
}
