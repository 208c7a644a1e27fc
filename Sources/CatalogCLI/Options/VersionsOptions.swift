import CatalogStore

/// `catalog versions`'s options: the common ones, the app and which builds count.
struct VersionsOptions: CommandOptions {
    var query: QueryOptions
    var bundleID: String
    var presence: CatalogQueries.Presence

    static let presenceOptions = QuerySupport.presenceOptions("builds")
    static let declared = QuerySupport.commonOptions + [QuerySupport.hostOption] + presenceOptions.options

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        bundleID = arguments.positionals[0]
        query = try QueryOptions(arguments, context)
        presence = try QuerySupport.presence(arguments, Self.presenceOptions)
    }
}
