import CatalogCore
import CatalogStore
import Foundation

/// `catalog certificates`'s options, parsed and checked once into the store's filter.
struct CertificatesOptions: CommandOptions {
    var query: QueryOptions
    /// The filters; `now` is the start of `--as-of`'s UTC day (README, "Days"): a certificate is
    /// expired from the day after its notAfter, and the `--expiring` window runs from that day.
    var filter: CatalogQueries.CertificateFilter

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        query = try QueryOptions(arguments, context)
        var filter = CatalogQueries.CertificateFilter()
        filter.now = DaysLeft.start(query.asOf)
        let days = try arguments.integer("days", default: 30, range: 0...36_500)
        if arguments.value("days") != nil && !arguments.flag("expiring") {
            throw UsageError(message: "--days needs --expiring")
        }
        if arguments.flag("expiring") {
            filter.notAfterFrom = filter.now
            filter.notAfterTo = DaysLeft.end(days, after: query.asOf)
        }
        filter.teamID = arguments.value("team")
        let typed = arguments.all("type")
        if !typed.isEmpty {
            filter.types = try typed.map(Self.type(named:))
        }
        filter.expired = try arguments.either("expired", or: "valid")
        filter.nameContains = arguments.value("name")
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
