import Foundation

/// The options every query command shares, parsed once: where the catalogue is (`--db`, else
/// `$CATALOG_DB`, else the data folder), how to print (`--format`/`--json`, else table on a terminal
/// and JSON elsewhere), how old the last ingest may be (`--max-age`) and the date days are counted
/// from (`--as-of`, else now), and the host whose rows count (`--host`, else every host). A command
/// that does not take `--max-age`, `--as-of` or `--host` gets nil, now and nil.
struct QueryOptions: CommandOptions {
    /// The catalogue file, absolute.
    var database: String
    var format: OutputFormat
    /// `--max-age` as given; `$CATALOG_MAX_AGE` is consulted only when the catalogue is opened
    /// (``QuerySupport/queries(_:_:)``), so a command that never opens it ignores a bad one.
    var maxAge: MaxAge?
    var asOf: Date
    /// Only rows of this host (locations, builds, runs, errors), compared ignoring ASCII case.
    var host: String?

    /// `catalog stats` takes these alone.
    static let declared = QuerySupport.commonOptions

    /// Reads `--max-age`, `--as-of` and `--host` only when the command declares them.
    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        database = CatalogueLocation.path(arguments, context.environment)
        format = try OutputFormat.from(arguments, context)
        maxAge = arguments.declares(MaxAge.option) ? try MaxAge.from(arguments) : nil
        asOf = arguments.declares(QuerySupport.asOfOption) ? try arguments.date(QuerySupport.asOfOption) ?? Date() : Date()
        host = arguments.declares(QuerySupport.hostOption) ? try QuerySupport.host(arguments) : nil
    }
}
