import CatalogCore
import CatalogStore
import Foundation

/// `catalog profiles`'s options, parsed and checked once: every filter but `--certificate`, which
/// names certificates only the catalogue can resolve.
struct ProfilesOptions: CommandOptions {
    var query: QueryOptions
    /// The filters; `now` is the start of `--as-of`'s UTC day, `certificateSHA1s` is left for `certificate`.
    var filter: CatalogQueries.ProfileFilter
    /// `--certificate` as typed: a SHA-1 or SHA-256, a prefix of one, or a common-name search.
    var certificate: String?

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        var filter = CatalogQueries.ProfileFilter()
        filter.teamID = arguments.value("team")
        filter.bundleID = arguments.value("bundle-id")
        if arguments.flag("exact") {
            guard filter.bundleID != nil else { throw UsageError(message: "--exact goes with --bundle-id") }
            filter.exactBundleID = true
        }
        filter.kind = try QuerySupport.kind(arguments)
        filter.platform = try QuerySupport.platform(arguments)
        filter.expired = try arguments.either("expired", or: "valid")
        filter.udid = arguments.value("device")
        if let entitlement = arguments.value("entitlement") {
            if let equals = entitlement.firstIndex(of: "=") {
                filter.entitlementKey = String(entitlement[..<equals])
                filter.entitlementValue = String(entitlement[entitlement.index(after: equals)...])
            } else {
                filter.entitlementKey = entitlement
            }
        }
        filter.nameContains = arguments.value("name")
        filter.superseded = try arguments.either("superseded", or: "current")
        switch try arguments.choice("signature", among: ProfilesCommand.signatureStatuses) {
        case "unchecked": filter.signatureUnchecked = true
        case let status?: filter.signature = ProfileSignature.Status(rawValue: status)
        case nil: break
        }
        if arguments.value("limit") != nil { filter.limit = try arguments.integer("limit", default: 0, range: 1...Int(Int32.max)) }
        switch (try QuerySupport.presence(arguments), arguments.flag("installed")) {
        case (.present, false): filter.scope = .anyLive
        case (.present, true): filter.scope = .installed
        case (.removed, false): filter.scope = .removed
        case (.any, false): filter.scope = .any
        case (_, true): throw UsageError(message: "--installed lists present profiles: it excludes --removed and --include-removed")
        }
        certificate = arguments.value("certificate")
        query = try QueryOptions(arguments, context)
        // `--expired`/`--valid` by the day rule (README, "Days"), as `days_left` reads.
        filter.now = DaysLeft.start(query.asOf)
        filter.host = query.host
        self.filter = filter
    }
}
