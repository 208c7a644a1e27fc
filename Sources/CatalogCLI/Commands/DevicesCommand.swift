import CatalogCore
import CatalogStore
import Foundation

/// `catalog devices [UDID]`: devices with profile counts, or the profiles that list one device.
enum DevicesCommand: Command {
    static let name = "devices"
    static let abstract = "List devices with profile counts, or the profiles that contain one device and the builds it can install."
    static let arguments = [ArgumentSpec(name: "udid", help: "Show the profiles that list this device (any case), and the present builds it can\ninstall at --as-of: their embedded profile lists it or all devices and is not an App\nStore profile, and the build still launches (launches_until).", optional: true)]
    static let examples = [
        "catalog devices",
        "catalog devices 00008030-001A2B3C4D5E802E",
    ]

    static let columns: [Column] = [
        Column(key: "udid", header: "UDID"),
        Column(key: "profile_count", header: "PROFILES"),
        Column(key: "first_seen", header: "FIRST SEEN", display: RelativeTime.day),
    ].ranked(["udid", "profile_count", "first_seen"])

    static func run(_ options: DevicesOptions, _ context: CommandContext) throws -> Int32 {
        let queries = try QuerySupport.queries(options.query, context)
        if let udid = options.udid {
            var filter = CatalogQueries.ProfileFilter()
            filter.udid = udid
            filter.host = options.query.host
            filter.now = options.query.asOf
            filter.createdBy = DaysLeft.end(0, after: options.query.asOf)
            var buildFilter = CatalogQueries.BuildFilter()
            buildFilter.installableBy = udid
            buildFilter.host = options.query.host
            buildFilter.now = filter.now
            buildFilter.archivedBy = filter.createdBy
            if options.query.format == .table {
                let profiles = try queries.profiles(filter).map { $0.output(now: filter.now) }
                let builds = try queries.builds(buildFilter).map { $0.output(now: filter.now) }
                QuerySupport.print(profiles, columns: QuerySupport.profileColumns, options.query, context)
                if !builds.isEmpty {
                    context.out("\nBuilds this device can install:\n")
                    QuerySupport.print(builds, columns: BuildsCommand.columns, options.query, context)
                }
            } else {
                // One list for scripts, `type` telling profiles from builds; CSV gets every key of
                // both. Streamed as the rows are read, so a device in many profiles needs no more
                // memory than one row.
                let keys = CSVRenderer.union(ProfileSummary.outputKeys, BuildSummary.outputKeys)
                try QuerySupport.stream(columns: [], keys: keys, options.query, context) { stream in
                    try queries.forEachProfile(filter) { stream.write($0, now: filter.now) }
                    try queries.forEachBuild(buildFilter) { stream.write($0.output(now: filter.now)) }
                }
            }
        } else {
            QuerySupport.print(try queries.devices().map(\.output), columns: columns, options.query, context)
        }
        return 0
    }
}
