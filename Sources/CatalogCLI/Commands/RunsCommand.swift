import CatalogCore
import CatalogStore
import Foundation

/// `catalog runs`: the ingest history, newest first.
enum RunsCommand: Command {
    static let name = "runs"
    static let abstract = "List ingest runs, newest first."
    static let arguments: [ArgumentSpec] = []
    static let examples = [
        "catalog runs --limit 5",
    ]

    static let columns: [Column] = [
        Column(key: "run_id", header: "RUN"),
        Column(key: "started_at", header: "STARTED"),
        Column(key: "status", header: "STATUS"),
        Column(key: "reason", header: "REASON"),
        Column(key: "files_scanned", header: "CHECKED"),
        Column(key: "files_unchanged", header: "UNCHANGED"),
        Column(key: "profiles_new", header: "NEW"),
        Column(key: "profiles_renewed", header: "RENEWED"),
        Column(key: "profiles_removed", header: "REMOVED"),
        Column(key: "builds_new", header: "BUILDS NEW"),
        Column(key: "builds_removed", header: "BUILDS REMOVED"),
        Column(key: "errors", header: "ERRORS"),
        Column.host,
        Column(key: "roots", header: "ROOTS"),
    ].ranked(["run_id", "status", "started_at", "reason", "errors", "files_scanned", "profiles_new", "profiles_renewed",
              "profiles_removed", "host", "roots", "builds_new", "builds_removed", "files_unchanged"])

    static func run(_ options: RunsOptions, _ context: CommandContext) throws -> Int32 {
        QuerySupport.print(try QuerySupport.queries(options.query, context).runs(limit: options.limit, host: options.query.host).map(\.output),
                           columns: columns, options.query, context)
        return 0
    }
}
