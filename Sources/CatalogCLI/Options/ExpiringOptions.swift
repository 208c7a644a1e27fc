import CatalogCore
import Foundation

/// `catalog expiring`'s options, parsed and checked once.
struct ExpiringOptions: CommandOptions {
    var query: QueryOptions
    /// The window: `days_left` 0 through `days` (README, "Days").
    var days: Int
    var includeExpired: Bool
    var teamID: String?
    /// Profiles of this kind only, and the certificates they use.
    var kind: ProfileKind?
    /// Profiles seen only embedded in builds count too.
    var allLocations: Bool
    var includeSuperseded: Bool
    /// List builds that stop launching in the window instead of profiles and certificates.
    var builds: Bool
    /// Exit 2 when anything is listed.
    var exitCode: Bool

    /// The start of the window, the first second of `--as-of`'s UTC day: before it is expired.
    var start: Date { DaysLeft.start(query.asOf) }
    /// The end of the window, inclusive: the last second of its last day.
    var end: Date { DaysLeft.end(days, after: query.asOf) }

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        days = try arguments.integer("days", default: 30, range: 0...36_500)
        builds = arguments.flag("builds")
        if builds {
            for option in ["kind", "all-locations", "include-superseded"] where arguments.flag(option) || arguments.value(option) != nil {
                throw UsageError(message: "--\(option) does not apply to --builds")
            }
        }
        includeExpired = arguments.flag("include-expired")
        teamID = arguments.value("team")
        kind = try QuerySupport.kind(arguments)
        allLocations = arguments.flag("all-locations")
        includeSuperseded = arguments.flag("include-superseded")
        exitCode = arguments.flag("exit-code")
        query = try QueryOptions(arguments, context)
    }
}
