import CatalogCore
import CatalogStore
import Foundation

/// `catalog certificates`: developer certificates listed by catalogued profiles.
enum CertificatesCommand: Command {
    static let name = "certificates"
    static let abstract = "List developer certificates and how many profiles list each."
    static let arguments: [ArgumentSpec] = []
    static let examples = [
        "catalog certificates --expiring --days 60",
        "catalog certificates --type apple-distribution --json",
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
