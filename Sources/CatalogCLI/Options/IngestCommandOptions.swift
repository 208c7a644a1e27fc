/// `catalog ingest`'s options, parsed once. (Named apart from CatalogIngest's `IngestOptions`,
/// what the ingester is given, which the command builds from these and the resolved roots.)
struct IngestCommandOptions: CommandOptions {
    /// The catalogue file, absolute.
    var database: String
    /// The paths to walk as typed; none: the standard Xcode folders that exist.
    var paths: [String]
    /// `.gitignore`-style patterns of entries to skip.
    var excludes: [String]
    /// Re-read every file, ignoring the incremental index.
    var full: Bool
    /// Exit 1 when any file failed to decode.
    var strict: Bool
    /// Accept a PATH that yields no file although the catalogue holds some under it.
    var allowEmpty: Bool
    /// No summary line and no progress.
    var quiet: Bool
    /// `--host` or `$CATALOG_HOST`; nil: the default for the catalogue's engine (``HostName``).
    var host: String?

    static let exclude = ValueOption(name: "exclude", value: "pattern", repeatable: true, help: "Skip entries matching a .gitignore-style pattern (repeatable).")
    static let fullFlag = Flag(name: "full", help: "Re-read every file, ignoring the incremental index.")
    static let strictFlag = Flag(name: "strict", help: "Exit 1 when any file failed to decode, not only when a PATH failed.")
    static let allowEmptyFlag = Flag(name: "allow-empty", help: "Accept a PATH emptied on purpose, marking what it held removed. Without\nit, a PATH that yields no file while the catalogue holds files under it\nis an error.")
    static let quietFlag = Flag(name: "quiet", short: "q", help: "Print no summary line.")
    static let hostOption = HostName.option(help: "The build host this run is from (default: $CATALOG_HOST; on PostgreSQL, this machine's name).")
    static let declared: [any OptionHandle] = [
        CatalogueLocation.option, exclude, fullFlag, strictFlag, allowEmptyFlag, quietFlag, hostOption,
    ]

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        database = CatalogueLocation.path(arguments, context.environment)
        paths = arguments.positionals
        excludes = arguments.all(Self.exclude)
        full = arguments[Self.fullFlag]
        strict = arguments[Self.strictFlag]
        allowEmpty = arguments[Self.allowEmptyFlag]
        quiet = arguments[Self.quietFlag]
        host = try HostName.given(arguments, Self.hostOption, context.environment)
    }
}
