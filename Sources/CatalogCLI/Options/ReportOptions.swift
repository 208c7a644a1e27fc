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

    static let daysOption = ValueOption(name: "days", value: "n", help: "The window in days (default 90): days_left 0 to N.")
    static let team = ValueOption(name: "team", value: "id", help: "Only this team.")
    static let html = ValueOption(name: "html", value: "file", help: "Write the HTML report to this file.")
    static let format = ValueOption(name: "format", value: "format", help: "markdown (default) or html, printed to stdout.", choices: ["markdown", "html"])
    static let declared: [any OptionHandle] = [CatalogueLocation.option, MaxAge.option] + [
        daysOption, QuerySupport.asOfOption, team, html, format,
    ]

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        days = try arguments.integer(Self.daysOption, default: 90, range: 1...3_650)
        asOf = try arguments.date(QuerySupport.asOfOption) ?? Date()
        let format = try arguments.choice(Self.format)
        switch (arguments.value(Self.html), format) {
        case (_?, _?): throw UsageError(message: "--html writes a file; it excludes --format")
        case (let file?, nil): output = .htmlFile(CatalogueLocation.absolute(file))
        case (nil, "html"): output = .html
        case (nil, _): output = .markdown
        }
        teamID = arguments.value(Self.team)
        database = CatalogueLocation.path(arguments, context.environment)
        maxAge = try MaxAge.from(arguments)
    }
}
