import CatalogCore
import CatalogStore
import Foundation

/// `catalog report`: what expires next, as a self-contained HTML page with a timeline, or as
/// Markdown for a chat.
enum ReportCommand: Command {
    static let name = "report"
    static let abstract = "A report of what expires next: an HTML page with a timeline, or Markdown for chat."
    static let discussion: String? = """
        Installed profiles and the certificates they use, by effective expiry: a timeline of the window
        (one lane per team and app, coloured by status, superseded profiles greyed), counts by kind and
        status, the catalogue's age, then what expires in the window, soonest first: profiles,
        certificates, and the latest build of each app with when it stops launching. What has already
        expired is counted with the command that lists it (in HTML, one folded group).
        --html FILE writes one self-contained HTML file (no script, nothing fetched; light and dark;
        prints). Otherwise Markdown goes to stdout (--format markdown), or HTML (--format html).
        """
    static let arguments: [ArgumentSpec] = []
    static let examples = [
        "catalog report > expiring.md",
        "catalog report --days 30 --html report.html",
    ]

    static func run(_ options: ReportOptions, _ context: CommandContext) throws -> Int32 {
        let queries = try QuerySupport.queries(at: options.database, maxAge: options.maxAge, showsTable: false, context)
        let data = try ReportData.load(queries, asOf: options.asOf, days: options.days, teamID: options.teamID,
                                       catalogue: options.database)
        switch options.output {
        case .htmlFile(let path):
            do {
                try Data(HTMLReport(data: data, version: CatalogCommand.version).render().utf8)
                    .write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw CLIError("cannot write \(path): \(whyNotWritable(path) ?? error.localizedDescription)")
            }
            context.err("wrote \(TextSanitizer.terminalSafe(path))\n")
        case .html:
            context.out(HTMLReport(data: data, version: CatalogCommand.version).render())
        case .markdown:
            context.out(MarkdownReport(data: data).render())
        }
        return ExitStatus.success
    }

    /// Why a file cannot be written at `path`, in words Foundation's errors do not give: the folder
    /// is missing, is not a folder, or may not be written; or the path is a folder. nil: none of those.
    static func whyNotWritable(_ path: String) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue { return "it is a folder" }
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else { return "the folder \(folder) does not exist" }
        guard isFolder.boolValue else { return "\(folder) is not a folder" }
        return access(folder, W_OK) != 0 ? "the folder \(folder) is not writable" : nil
    }
}
