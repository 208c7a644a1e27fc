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
        OptionSpec(name: "days", value: "n", help: "The window for --expiring (default 30): days_left 0 to N."),
        QuerySupport.asOfOption,
        OptionSpec(name: "team", value: "id", help: "Only this team (the certificate's OU)."),
        OptionSpec(name: "type", value: "type", repeatable: true,
                   help: "Only this type: \(CertificateType.allCases.map(\.rawValue).joined(separator: ", ")),\nas written or as a slug (apple-development, developer-id-application)."
                       + " Repeatable.",
                   choices: CertificateType.allCases.map(slug)),
        OptionSpec(name: "expired", help: "Only certificates expired (days_left < 0: before --as-of's UTC day)."),
        OptionSpec(name: "valid", help: "Only certificates not expired (days_left >= 0)."),
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
    ].ranked(["common_name", "not_after", "days_left", "sha1", "team_id", "profile_count", "certificate_type"])

    /// `Apple Development` → `apple-development`: a shell-friendly spelling of a type.
    static func slug(_ type: CertificateType) -> String {
        type.rawValue.lowercased().replacingOccurrences(of: " ", with: "-")
    }

    static func run(_ options: CertificatesOptions, _ context: CommandContext) throws -> Int32 {
        let records = try QuerySupport.queries(options.query, context).certificates(options.filter)
            .map { $0.output(now: options.filter.now) }
        QuerySupport.print(records, columns: columns, options.query, context)
        return 0
    }
}
