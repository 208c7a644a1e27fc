import CatalogCore
import CatalogStore
import Foundation

/// `catalog certificates`: developer certificates listed by catalogued profiles.
enum CertificatesCommand: Command {
    static let name = "certificates"
    static let abstract = "List developer certificates and how many profiles list each."
    static let arguments: [ArgumentSpec] = []
    static let options = QuerySupport.commonOptions + [
        OptionSpec(name: "expiring", help: "Only certificates that expire within --days."),
        OptionSpec(name: "days", value: "n", help: "The window for --expiring (default 30)."),
        QuerySupport.asOfOption,
        OptionSpec(name: "team", value: "id", help: "Only this team (the certificate's OU)."),
    ]

    static let columns: [Column] = [
        Column(key: "sha1", header: "SHA-1"),
        Column(key: "common_name", header: "NAME"),
        Column(key: "team_id", header: "TEAM"),
        Column(key: "not_after", header: "EXPIRES", display: RelativeTime.day),
        Column(key: "days_left", header: "LEFT", display: RelativeTime.days),
        Column(key: "profile_count", header: "PROFILES"),
    ]

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        let now = try arguments.date("as-of") ?? Date()
        let days = try arguments.integer("days", default: 30, range: 0...36_500)
        if arguments.value("days") != nil && !arguments.flag("expiring") {
            throw UsageError(message: "--days needs --expiring")
        }
        let expiring = arguments.flag("expiring")
        let records = try QuerySupport.queries(arguments, context).certificates(
            expiringFrom: expiring ? now : nil, to: expiring ? now.addingTimeInterval(Double(days) * 86_400) : nil,
            teamID: arguments.value("team"), now: now)
        try QuerySupport.print(records, columns: columns, arguments, context)
        return 0
    }
}
