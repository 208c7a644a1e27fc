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
        OptionSpec(name: "type", value: "type", repeatable: true,
                   help: "Only this type: \(CertificateType.allCases.map(\.rawValue).joined(separator: ", ")),\nas written or as a slug (apple-development, developer-id-application)."
                       + " Repeatable.",
                   choices: CertificateType.allCases.map(slug)),
        OptionSpec(name: "expired", help: "Only certificates already expired (at --as-of)."),
        OptionSpec(name: "valid", help: "Only certificates not yet expired."),
        OptionSpec(name: "name", value: "text", help: "Only certificates whose common name contains this text (any case)."),
    ]

    static let columns: [Column] = [
        Column(key: "sha1", header: "SHA-1"),
        Column(key: "certificate_type", header: "TYPE"),
        Column(key: "common_name", header: "NAME"),
        Column(key: "team_id", header: "TEAM"),
        Column(key: "not_after", header: "EXPIRES", display: RelativeTime.day),
        Column(key: "days_left", header: "LEFT", display: RelativeTime.days),
        Column(key: "profile_count", header: "PROFILES"),
    ]

    /// `Apple Development` → `apple-development`: a shell-friendly spelling of a type.
    static func slug(_ type: CertificateType) -> String {
        type.rawValue.lowercased().replacingOccurrences(of: " ", with: "-")
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        var filter = CatalogQueries.CertificateFilter()
        filter.now = try arguments.date("as-of") ?? Date()
        let days = try arguments.integer("days", default: 30, range: 0...36_500)
        if arguments.value("days") != nil && !arguments.flag("expiring") {
            throw UsageError(message: "--days needs --expiring")
        }
        if arguments.flag("expiring") {
            filter.notAfterFrom = filter.now
            filter.notAfterTo = filter.now.addingTimeInterval(Double(days) * 86_400)
        }
        filter.teamID = arguments.value("team")
        let typed = arguments.all("type")
        if !typed.isEmpty {
            filter.types = try typed.map { text in
                guard let type = CertificateType.allCases.first(where: {
                    $0.rawValue.lowercased() == text.lowercased() || slug($0) == text.lowercased()
                }) else {
                    throw UsageError(message: "--type must be one of \(CertificateType.allCases.map(slug).joined(separator: ", ")), got '\(text)'")
                }
                return type
            }
        }
        switch (arguments.flag("expired"), arguments.flag("valid")) {
        case (true, true): throw UsageError(message: "--expired and --valid exclude each other")
        case (true, false): filter.expired = true
        case (false, true): filter.expired = false
        case (false, false): break
        }
        filter.nameContains = arguments.value("name")
        let records = try QuerySupport.queries(arguments, context).certificates(filter).map { $0.output(now: filter.now) }
        try QuerySupport.print(records, columns: columns, arguments, context)
        return 0
    }
}
