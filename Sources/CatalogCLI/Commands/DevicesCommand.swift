import CatalogCore
import CatalogStore
import Foundation

/// `catalog devices [UDID]`: devices with profile counts, or the profiles that list one device.
enum DevicesCommand: Command {
    static let name = "devices"
    static let abstract = "List devices with profile counts, or the profiles that contain one device and the builds it can install."
    static let arguments = [ArgumentSpec(name: "udid", help: "Show the profiles that list this device (any case), and the present builds it can\ninstall at --as-of: their embedded profile lists it or all devices, is not expired\nand is not an App Store profile.", optional: true)]
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
            let profiles = try queries.profiles(filter).map { $0.output(now: filter.now) }
            var buildFilter = CatalogQueries.BuildFilter()
            buildFilter.installableBy = udid
            buildFilter.now = filter.now
            let builds = try queries.builds(buildFilter).map { $0.output(now: filter.now) }
            if try OutputFormat.from(arguments, context) == .table {
                try QuerySupport.print(profiles, columns: QuerySupport.profileColumns, arguments, context)
                if !builds.isEmpty {
                    context.out("\nBuilds this device can install:\n")
                    try QuerySupport.print(builds, columns: BuildsCommand.columns, arguments, context)
                }
            } else {
                // One list for scripts, `type` telling profiles from builds; CSV gets every column of both.
                let keys = Set(QuerySupport.profileColumns.map(\.key))
                let columns = [Column(key: "type", header: "TYPE")] + QuerySupport.profileColumns
                    + BuildsCommand.columns.filter { !keys.contains($0.key) }
                try QuerySupport.print(profiles + builds, columns: columns, arguments, context)
            }
        } else {
            try QuerySupport.print(try queries.devices().map(\.output), columns: columns, arguments, context)
        }
        return 0
    }
}
