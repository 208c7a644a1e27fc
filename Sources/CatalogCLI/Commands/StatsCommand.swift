import CatalogCore
import CatalogStore
import Foundation

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
