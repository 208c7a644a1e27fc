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
    /// `--include-newest`: an expired profile goes even when it is the newest of its app id.
    var includeNewest: Bool
    /// `--host` or `$CATALOG_HOST`: the host this machine is in the catalogue; nil: as `ingest` defaults.
    var host: String?

    static let expiredFlag = Flag(name: "expired", help: "Profiles whose effective expiry is on a day before --as-of's (UTC).")
    static let supersededFlag = Flag(name: "superseded", help: "Profiles a present renewal supersedes.")
    static let apply = Flag(name: "apply", help: "Move the files to the trash (~/.Trash on macOS, the XDG trash elsewhere).")
    static let delete = Flag(name: "delete", help: "Delete the files instead of trashing them.")
    static let includeNewestFlag = Flag(name: "include-newest",
                                        help: "With --expired, also the newest profile of an app id when it has expired (as\nfastlane sigh manage -e and mprovision clean do); the catalogue keeps its history.")
    static let hostOption = HostName.option(help: "The build host this machine is in the catalogue: only its files are candidates (default: as for ingest).")
    static let declared: [any OptionHandle] = [CatalogueLocation.option] + OutputFormat.options + [
        expiredFlag, supersededFlag, includeNewestFlag, QuerySupport.asOfOption, apply, delete, hostOption,
    ]

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        if arguments[Self.apply] && arguments[Self.delete] {
            throw UsageError(message: "--apply (trash) and --delete exclude each other")
        }
        mode = arguments[Self.delete] ? .delete : arguments[Self.apply] ? .trash : .dryRun
        let both = !arguments[Self.expiredFlag] && !arguments[Self.supersededFlag]
        expired = both || arguments[Self.expiredFlag]
        superseded = both || arguments[Self.supersededFlag]
        includeNewest = arguments[Self.includeNewestFlag]
        if includeNewest && !expired {
            throw UsageError(message: "--include-newest goes with --expired: a renewal never supersedes the newest profile")
        }
        query = try QueryOptions(arguments, context)
        paths = arguments.positionals
        host = try HostName.given(arguments, Self.hostOption, context.environment)
    }
}
