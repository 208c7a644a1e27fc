import CatalogCore
import CatalogStore
import Foundation

/// `catalog report`: what expires next, as a self-contained HTML page with a timeline, or as
/// Markdown for a chat.
enum ReportCommand: Command {
    static let name = "report"
    static let abstract = "A report of what expires next: an HTML page with a timeline, or Markdown for chat."
    static let discussion: String? = """
        Installed profiles and the certificates they use, by effective expiry: a timeline (one lane per
        team and app, coloured by status, superseded profiles greyed), counts by kind and status, the
        catalogue's age, what expires in the window, what expired but is still installed, certificates
        by expiry, and the latest build of each app with when it stops launching.
        --html FILE writes one self-contained HTML file (no script, nothing fetched; light and dark;
        prints). Otherwise Markdown goes to stdout (--format markdown), or HTML (--format html).
        """
    static let arguments: [ArgumentSpec] = []
    static let options = [CatalogueLocation.option, MaxAge.option] + [
        OptionSpec(name: "days", value: "n", help: "The window in days (default 90)."),
        QuerySupport.asOfOption,
        OptionSpec(name: "team", value: "id", help: "Only this team."),
        OptionSpec(name: "html", value: "file", help: "Write the HTML report to this file."),
        OptionSpec(name: "format", value: "format", help: "markdown (default) or html, printed to stdout.", choices: ["markdown", "html"]),
    ]

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        let days = try arguments.integer("days", default: 90, range: 1...3_650)
        let asOf = try arguments.date("as-of") ?? Date()
        let format = try arguments.choice("format", among: ["markdown", "html"])
        let htmlFile = arguments.value("html")
        if htmlFile != nil, format != nil { throw UsageError(message: "--html writes a file; it excludes --format") }
        let queries = try QuerySupport.queries(arguments, context)
        let data = try ReportData.load(queries, asOf: asOf, days: days, teamID: arguments.value("team"),
                                       catalogue: CatalogueLocation.path(arguments, context.environment))
        if let htmlFile {
            let path = CatalogueLocation.absolute(htmlFile)
            do {
                try Data(HTMLReport(data: data, version: CatalogCommand.version).render().utf8)
                    .write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw CLIError("cannot write \(path): \(error.localizedDescription)")
            }
            context.err("wrote \(TextSanitizer.terminalSafe(path))\n")
        } else if format == "html" {
            context.out(HTMLReport(data: data, version: CatalogCommand.version).render())
        } else {
            context.out(MarkdownReport(data: data).render())
        }
        return ExitStatus.success
    }
}
