import CatalogCore
import CatalogStore
import Foundation

/// `catalog builds`'s options, parsed and checked once into the store's filter.
struct BuildsOptions: CommandOptions {
    var query: QueryOptions
    /// The filters; `now` is `--as-of`.
    var filter: CatalogQueries.BuildFilter

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        var filter = CatalogQueries.BuildFilter()
        filter.bundleID = arguments.positionals.first
        filter.shortVersion = arguments.value("version")
        filter.build = arguments.value("build")
        filter.teamID = arguments.value("team")
        // As typed: ``BuildsCommand`` turns it into a UUID once the catalogue is open.
        filter.profileUUID = arguments.value("profile")
        if let typed = arguments.value("uuid") {
            guard let uuid = MachOFile.canonicalUUID(typed) else {
                throw UsageError(message: "--uuid \(typed): not a UUID (32 hex digits, dashes optional)")
            }
            filter.binaryUUID = uuid
        }
        filter.since = try arguments.date("since")
        filter.presence = try QuerySupport.presence(arguments)
        query = try QueryOptions(arguments, context)
        filter.now = query.asOf
        filter.host = query.host
        if arguments.value("limit") != nil { filter.limit = try arguments.integer("limit", default: 0, range: 1...Int(Int32.max)) }
        self.filter = filter
    }
}
