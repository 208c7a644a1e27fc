/// `catalog verify`'s options: the common ones and what to verify.
struct VerifyOptions: CommandOptions {
    var query: QueryOptions
    /// Files, bundles or archives, or catalogued profile UUIDs, as typed.
    var targets: [String]

    static let declared = QuerySupport.commonOptions + [QuerySupport.asOfOption]

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        query = try QueryOptions(arguments, context)
        targets = arguments.positionals
    }
}
