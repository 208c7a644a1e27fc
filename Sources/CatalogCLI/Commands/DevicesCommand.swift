import CatalogCore
import CatalogStore
import Foundation

/// `catalog devices [UDID]`: devices with profile counts, or the profiles that list one device.
enum DevicesCommand: Command {
    static let name = "devices"
    static let abstract = "List devices with profile counts, or the profiles that contain one device."
    static let arguments = [ArgumentSpec(name: "udid", help: "Show the profiles that list this device.", optional: true)]
    static let options = QuerySupport.commonOptions + [QuerySupport.asOfOption]

    static let columns: [Column] = [
        Column(key: "udid", header: "UDID"),
        Column(key: "profile_count", header: "PROFILES"),
        Column(key: "first_seen", header: "FIRST SEEN", display: RelativeTime.day),
    ]

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        let queries = try QuerySupport.queries(arguments, context)
        if let udid = arguments.positionals.first {
            var filter = CatalogQueries.ProfileFilter()
            filter.udid = udid
            filter.now = try arguments.date("as-of") ?? Date()
            try QuerySupport.print(try queries.profiles(filter), columns: QuerySupport.profileColumns, arguments, context)
        } else {
            try QuerySupport.print(try queries.devices(), columns: columns, arguments, context)
        }
        return 0
    }
}
