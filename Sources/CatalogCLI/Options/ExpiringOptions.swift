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
    /// Exit 2 when anything is listed (with `--notify-at`: announced).
    var exitCode: Bool
    /// `--notify-at`: the thresholds in days, most distant first; nil lists everything every run.
    var notifyAt: [Int]?
    /// Where what was announced is remembered (`--state`, else ``NotifyState/defaultPath(_:)``).
    var statePath: String

    /// The start of the window, the first second of `--as-of`'s UTC day: before it is expired.
    var start: Date { DaysLeft.start(query.asOf) }
    /// The end of the window, inclusive: the last second of its last day.
    var end: Date { DaysLeft.end(days, after: query.asOf) }

    static let daysOption = ValueOption(name: "days", value: "n", help: "The window in days (default 30): days_left 0 (today, UTC) to N.")
    static let includeExpiredFlag = Flag(name: "include-expired", help: "Also list what has already expired.")
    static let team = ValueOption(name: "team", value: "id", help: "Only this team.")
    static let allLocationsFlag = Flag(name: "all-locations", help: "Count profiles seen only embedded in builds too.")
    static let includeSupersededFlag = Flag(name: "include-superseded", help: "Also list profiles a renewal supersedes (superseded_by names it).")
    static let buildsFlag = Flag(name: "builds", help: "List present builds that stop launching in the window instead (their\nlaunches_until: by a profile, or the certificate that signed them; never App Store ones).")
    static let exitCodeFlag = Flag(name: "exit-code", help: "Exit 2 when anything is listed (for cron alerts); failures exit 1, usage errors 64.")
    static let notifyAtOption = ValueOption(name: "notify-at", value: "days,…",
                                            help: "List an item only on the first run after it reaches each of these days left\n(e.g. 60,30,14,7,1), first enters the window, or expires; what was announced is\nkept in --state. The window defaults to the largest threshold.")
    static let stateOption = ValueOption(name: "state", value: "path",
                                         help: "The file --notify-at remembers announcements in (default:\n$XDG_STATE_HOME/catalog/notified.json; macOS: ~/Library/Application Support/catalog/).")
    static let declared = QuerySupport.commonOptions + [
        daysOption, QuerySupport.asOfOption, includeExpiredFlag, team, QuerySupport.kindOption, allLocationsFlag,
        includeSupersededFlag, buildsFlag, QuerySupport.hostOption, exitCodeFlag, notifyAtOption, stateOption,
    ]

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        if let text = arguments.value(Self.notifyAtOption) {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let values = parts.compactMap { Int($0) }
            guard !parts.isEmpty, values.count == parts.count, values.allSatisfy({ (0...36_500).contains($0) }) else {
                throw UsageError(message: "--notify-at takes days left, comma-separated (e.g. 60,30,14,7,1), not '\(text)'")
            }
            notifyAt = Array(Set(values)).sorted(by: >)
        } else if arguments.given(Self.stateOption) {
            throw UsageError(message: "--state applies only with --notify-at")
        }
        statePath = arguments.value(Self.stateOption).map(CatalogueLocation.absolute) ?? NotifyState.defaultPath(context.environment)
        days = try arguments.integer(Self.daysOption, default: notifyAt?.first ?? 30, range: 0...36_500)
        builds = arguments[Self.buildsFlag]
        if builds {
            let other: [any OptionHandle] = [QuerySupport.kindOption, Self.allLocationsFlag, Self.includeSupersededFlag]
            for option in other where arguments.given(option) {
                throw UsageError(message: "--\(option.spec.name) does not apply to --builds")
            }
        }
        includeExpired = arguments[Self.includeExpiredFlag]
        teamID = arguments.value(Self.team)
        kind = try QuerySupport.kind(arguments)
        allLocations = arguments[Self.allLocationsFlag]
        includeSuperseded = arguments[Self.includeSupersededFlag]
        exitCode = arguments[Self.exitCodeFlag]
        query = try QueryOptions(arguments, context)
    }
}
