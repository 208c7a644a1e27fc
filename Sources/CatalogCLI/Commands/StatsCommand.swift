import CatalogCore
import CatalogStore
import Foundation

/// `catalog stats`: where the catalogue is and what it holds.
enum StatsCommand: Command {
    static let name = "stats"
    static let abstract = "Show the catalogue's path, schema version, counts and last run."
    static let arguments: [ArgumentSpec] = []
    static let examples = [
        "catalog stats",
        "catalog stats --json",
    ]

    static func run(_ options: QueryOptions, _ context: CommandContext) throws -> Int32 {
        let stats = try QuerySupport.queries(options, context).stats()
        QuerySupport.printObject(stats.output(database: CatalogueEngine(options.database).description, now: Date()), options, context)
        return 0
    }
}
