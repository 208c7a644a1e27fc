import CatalogCore
import CatalogStore
import Foundation

/// `catalog runs`: the ingest history, newest first.
enum RunsCommand: Command {
    static let name = "runs"
    static let abstract = "List ingest runs, newest first."
    static let arguments: [ArgumentSpec] = []
    static let options = QuerySupport.commonOptions + [
        OptionSpec(name: "limit", value: "n", help: "At most N runs (default 20)."),
    ]

    static let columns: [Column] = [
        Column(key: "id", header: "RUN"),
        Column(key: "started_at", header: "STARTED"),
        Column(key: "status", header: "STATUS"),
        Column(key: "files_scanned", header: "SCANNED"),
        Column(key: "files_decoded", header: "DECODED"),
        Column(key: "profiles_new", header: "NEW"),
        Column(key: "profiles_removed", header: "REMOVED"),
        Column(key: "errors", header: "ERRORS"),
        Column(key: "roots", header: "ROOTS"),
    ]

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        let limit = try arguments.integer("limit", default: 20, range: 1...Int(Int32.max))
        try QuerySupport.print(try QuerySupport.queries(arguments, context).runs(limit: limit),
                               columns: columns, arguments, context)
        return 0
    }
}

/// `catalog errors [--run N]`: the files a run could not decode.
enum ErrorsCommand: Command {
    static let name = "errors"
    static let abstract = "List the files an ingest run could not decode (the latest run by default)."
    static let arguments: [ArgumentSpec] = []
    static let options = QuerySupport.commonOptions + [
        OptionSpec(name: "run", value: "n", help: "The run id (see 'catalog runs')."),
    ]

    static let columns: [Column] = [
        Column(key: "run_id", header: "RUN"),
        Column(key: "path", header: "PATH"),
        Column(key: "message", header: "ERROR"),
    ]

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        let run = arguments.value("run") == nil ? nil : Int64(try arguments.integer("run", default: 0, range: 1...Int(Int32.max)))
        try QuerySupport.print(try QuerySupport.queries(arguments, context).errors(runID: run),
                               columns: columns, arguments, context)
        return 0
    }
}

/// `catalog stats`: where the catalogue is and what it holds.
enum StatsCommand: Command {
    static let name = "stats"
    static let abstract = "Show the catalogue's path, schema version, counts and last run."
    static let arguments: [ArgumentSpec] = []
    static let options = QuerySupport.commonOptions

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        let queries = try QuerySupport.queries(arguments, context)
        let version = try Migrator().currentVersion(of: queries.db)
        let stats = try queries.stats(path: CatalogueLocation.path(arguments, context.environment), schemaVersion: version)
        try QuerySupport.printObject(stats, arguments, context)
        return 0
    }
}
