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

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        database = CatalogueLocation.path(arguments, context.environment)
        paths = arguments.positionals
        excludes = arguments.all("exclude")
        full = arguments.flag("full")
        strict = arguments.flag("strict")
        allowEmpty = arguments.flag("allow-empty")
        quiet = arguments.flag("quiet")
        host = try HostName.given(arguments, context.environment)
    }
}
