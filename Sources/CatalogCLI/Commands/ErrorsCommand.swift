import CatalogCore
import CatalogStore
import Foundation

/// `catalog errors [--run N]`: what is in error now (each path with the last run that met it), or
/// what one run recorded.
enum ErrorsCommand: Command {
    static let name = "errors"
    static let abstract = "List every file currently in error, with the run that last met it (or one run's errors)."
    static let arguments: [ArgumentSpec] = []
    static let examples = [
        "catalog errors",
        "catalog errors --run 12",
    ]

    static let columns: [Column] = [
        Column(key: "run_id", header: "RUN"),
        Column.host,
        Column(key: "path", header: "PATH"),
        Column(key: "message", header: "ERROR"),
    ].ranked(["path", "message", "run_id", "host"])

    static func run(_ options: ErrorsOptions, _ context: CommandContext) throws -> Int32 {
        QuerySupport.print(try QuerySupport.queries(options.query, context).errors(runID: options.runID, host: options.query.host, all: options.all).map(\.output),
                           columns: columns, options.query, context)
        return 0
    }
}
