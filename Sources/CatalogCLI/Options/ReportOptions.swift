import Foundation

/// `catalog report`'s options, parsed and checked once. Its `--format` is its own (markdown or
/// html), so it takes the catalogue and `--max-age` options without ``QueryOptions``.
struct ReportOptions: CommandOptions {
    /// Where the report goes.
    enum Output: Equatable {
        /// Markdown on stdout (the default, `--format markdown`).
        case markdown
        /// HTML on stdout (`--format html`).
        case html
        /// HTML written to this file, absolute (`--html FILE`).
        case htmlFile(String)
    }

    /// The catalogue file, absolute.
    var database: String
    /// `--max-age` as given (``QuerySupport`` falls back on `$CATALOG_MAX_AGE`).
    var maxAge: MaxAge?
    /// The window in days (default 90).
    var days: Int
    var asOf: Date
    var teamID: String?
    var output: Output

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        days = try arguments.integer("days", default: 90, range: 1...3_650)
        asOf = try arguments.date("as-of") ?? Date()
        let format = try arguments.choice("format", among: ["markdown", "html"])
        switch (arguments.value("html"), format) {
        case (_?, _?): throw UsageError(message: "--html writes a file; it excludes --format")
        case (let file?, nil): output = .htmlFile(CatalogueLocation.absolute(file))
        case (nil, "html"): output = .html
        case (nil, _): output = .markdown
        }
        teamID = arguments.value("team")
        database = CatalogueLocation.path(arguments, context.environment)
        maxAge = try MaxAge.from(arguments)
    }
}
