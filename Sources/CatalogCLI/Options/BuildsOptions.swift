import CatalogCore
import CatalogStore
import Foundation

/// `catalog builds`'s options, parsed and checked once into the store's filter.
struct BuildsOptions: CommandOptions {
    var query: QueryOptions
    /// The filters; `now` is `--as-of`.
    var filter: CatalogQueries.BuildFilter

    static let version = ValueOption(name: "version", value: "v", help: "Only this marketing version (CFBundleShortVersionString).")
    static let build = ValueOption(name: "build", value: "b", help: "Only this build number (CFBundleVersion).")
    static let team = ValueOption(name: "team", value: "id", help: "Only this team.")
    static let profile = ValueOption(name: "profile", value: "profile", help: "Only builds that embed this profile: a UUID or a unique prefix of 8+ hex\ndigits, a path or a name, as show takes them.")
    static let uuid = ValueOption(name: "uuid", value: "uuid", help: "Only builds with an executable or dSYM of this Mach-O UUID (a crash report's;\nany case, dashes optional), with where it is in each.")
    static let since = ValueOption(name: "since", value: "date", help: "Only builds archived (or first seen) on or after this date.")
    static let limit = ValueOption(name: "limit", value: "n", help: "At most N builds.")
    static let latest = Flag(name: "latest", help: "Only each app's newest build (not the apps nested in it), as the report\ncounts them.")
    static let expired = Flag(name: "expired", help: "Only builds that no longer launch (launches_until before --as-of's UTC day);\nwith --latest, apps whose newest build no longer launches.")
    static let launching = Flag(name: "launching", help: "Only builds that still launch, or that nothing is known to stop.")
    static let presence = QuerySupport.presenceOptions("builds")
    static let declared = QuerySupport.commonOptions + [
        version, build, team, profile, uuid, since, limit, latest, expired, launching, QuerySupport.asOfOption, QuerySupport.hostOption,
    ] + presence.options

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        var filter = CatalogQueries.BuildFilter()
        filter.bundleID = arguments.positionals.first
        filter.shortVersion = arguments.value(Self.version)
        filter.build = arguments.value(Self.build)
        filter.teamID = arguments.value(Self.team)
        // As typed: ``BuildsCommand`` turns it into a UUID once the catalogue is open.
        filter.profileUUID = arguments.value(Self.profile)
        if let typed = arguments.value(Self.uuid) {
            guard let uuid = MachOFile.canonicalUUID(typed) else {
                throw UsageError(message: "--uuid \(typed): not a UUID (32 hex digits, dashes optional)")
            }
            filter.binaryUUID = uuid
        }
        filter.since = try arguments.date(Self.since)
        filter.presence = try QuerySupport.presence(arguments, Self.presence)
        query = try QueryOptions(arguments, context)
        filter.now = query.asOf
        filter.archivedBy = DaysLeft.end(0, after: query.asOf)
        filter.latestOfEachApp = arguments[Self.latest]
        switch try arguments.either(Self.expired, or: Self.launching) {
        case true?: filter.launch = .stopped(dayStart: DaysLeft.start(query.asOf))
        case false?: filter.launch = .launching(dayStart: DaysLeft.start(query.asOf))
        case nil: break
        }
        filter.host = query.host
        if arguments.value(Self.limit) != nil { filter.limit = try arguments.integer(Self.limit, default: 0, range: 1...Int(Int32.max)) }
        self.filter = filter
    }
}
