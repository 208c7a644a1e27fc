/// `catalog show`'s options: the common ones and the profile asked for.
struct ShowOptions: CommandOptions {
    var query: QueryOptions
    /// A UUID, a path or a name, as typed (``ProfileLookup/uuid(_:host:_:)`` finds the UUID).
    var profile: String

    static let declared = QuerySupport.commonOptions + [QuerySupport.asOfOption, QuerySupport.hostOption]

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        profile = arguments.positionals[0]
        query = try QueryOptions(arguments, context)
    }
}
