/// `catalog prune`'s options, parsed and checked once.
struct PruneOptions: CommandOptions {
    /// The catalogue, the output format and `--as-of` (prune takes no `--max-age`).
    var query: QueryOptions
    var mode: PruneCommand.Mode
    /// Prune expired profiles (`--expired`, or neither reason flag).
    var expired: Bool
    /// Prune superseded profiles (`--superseded`, or neither reason flag).
    var superseded: Bool
    /// The folders to prune as typed; none: Xcode's profile folders.
    var paths: [String]
    /// `--host` or `$CATALOG_HOST`: the host this machine is in the catalogue; nil: as `ingest` defaults.
    var host: String?

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        if arguments.flag("apply") && arguments.flag("delete") {
            throw UsageError(message: "--apply (trash) and --delete exclude each other")
        }
        mode = arguments.flag("delete") ? .delete : arguments.flag("apply") ? .trash : .dryRun
        let both = !arguments.flag("expired") && !arguments.flag("superseded")
        expired = both || arguments.flag("expired")
        superseded = both || arguments.flag("superseded")
        query = try QueryOptions(arguments, context)
        paths = arguments.positionals
        host = try HostName.given(arguments, context.environment)
    }
}
