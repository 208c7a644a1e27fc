import CatalogCore
import CatalogStore
import Foundation

/// `catalog certificates`'s options, parsed and checked once into the store's filter.
struct CertificatesOptions: CommandOptions {
    var query: QueryOptions
    /// The filters; `now` is the start of `--as-of`'s UTC day (README, "Days"): a certificate is
    /// expired from the day after its notAfter, and the `--expiring` window runs from that day.
    var filter: CatalogQueries.CertificateFilter

    static let expiring = Flag(name: "expiring", help: "Only certificates that expire within --days.")
    static let days = ValueOption(name: "days", value: "n", help: "The window for --expiring (default 30): days_left 0 to N.")
    static let team = ValueOption(name: "team", value: "id", help: "Only this team (the certificate's OU).")
    static let type = ValueOption(
        name: "type", value: "type", repeatable: true,
        help: "Only this type: \(CertificateType.allCases.map(\.rawValue).joined(separator: ", ")),\nas written or as a slug (apple-development, developer-id-application)."
            + " Repeatable.",
        choices: CertificateType.allCases.map(CertificatesCommand.slug))
    static let expired = Flag(name: "expired", help: "Only certificates expired (days_left < 0: before --as-of's UTC day).")
    static let valid = Flag(name: "valid", help: "Only certificates not expired (days_left >= 0).")
    static let name = ValueOption(name: "name", value: "text", help: "Only certificates whose common name contains this text (any case).")
    static let inUse = Flag(name: "in-use", help: "Only certificates an installed profile lists (created by --as-of's day),\nprofile_count counting those profiles, as the report does.")
    static let declared = QuerySupport.commonOptions + [
        expiring, days, QuerySupport.asOfOption, team, type, expired, valid, name, inUse,
    ]

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        query = try QueryOptions(arguments, context)
        var filter = CatalogQueries.CertificateFilter()
        filter.now = DaysLeft.start(query.asOf)
        let days = try arguments.integer(Self.days, default: 30, range: 0...36_500)
        if arguments.value(Self.days) != nil && !arguments[Self.expiring] {
            throw UsageError(message: "--days needs --expiring")
        }
        if arguments[Self.expiring] {
            filter.notAfterFrom = filter.now
            filter.notAfterTo = DaysLeft.end(days, after: query.asOf)
        }
        filter.teamID = arguments.value(Self.team)
        let typed = arguments.all(Self.type)
        if !typed.isEmpty {
            filter.types = try typed.map(Self.type(named:))
        }
        filter.expired = try arguments.either(Self.expired, or: Self.valid)
        filter.nameContains = arguments.value(Self.name)
        if arguments[Self.inUse] {
            var users = CatalogQueries.ProfileFilter()
            users.scope = .installed
            users.createdBy = DaysLeft.end(0, after: query.asOf)
            filter.usedBy = users
        }
        self.filter = filter
    }

    /// A `--type` as written (`Apple Development`, any case) or as a slug (`apple-development`).
    static func type(named text: String) throws -> CertificateType {
        let slug = CertificatesCommand.slug
        guard let type = CertificateType.allCases.first(where: {
            $0.rawValue.lowercased() == text.lowercased() || slug($0) == text.lowercased()
        }) else {
            throw UsageError(message: "--type must be one of \(CertificateType.allCases.map(slug).joined(separator: ", ")), got '\(text)'")
        }
        return type
    }
}
