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

    static let team = ValueOption(name: "team", value: "id", help: "Only this team id.")
    static let bundleID = ValueOption(name: "bundle-id", value: "id", help: "Only profiles for this bundle id, in any case, and the wildcard\nprofiles that cover it (com.x.*, *), marked bundle_id_match: wildcard.")
    static let exact = Flag(name: "exact", help: "With --bundle-id: only that exact id, no wildcard profiles.")
    static let expired = Flag(name: "expired", help: "Only profiles expired (days_left < 0: effective expiry before --as-of's UTC day).")
    static let valid = Flag(name: "valid", help: "Only profiles not expired (days_left >= 0).")
    static let installed = Flag(name: "installed", help: "Only profiles present as standalone files.")
    static let device = ValueOption(name: "device", value: "udid", help: "Only profiles that list this device (any case).")
    static let certificateOption = ValueOption(name: "certificate", value: "sha-or-name", help: "Only profiles that list this certificate: SHA-1 or SHA-256 (any case,\nspaces or colons), a unique prefix of 8+ hex digits, or a common-name search.")
    static let entitlement = ValueOption(name: "entitlement", value: "key[=value]", help: "Only profiles with this entitlement (and value, or one member of an array).")
    static let name = ValueOption(name: "name", value: "text", help: "Only profiles whose name contains this text.")
    static let superseded = Flag(name: "superseded", help: "Only profiles a renewal supersedes (see superseded_by).")
    static let current = Flag(name: "current", help: "Only profiles nothing supersedes.")
    static let signature = ValueOption(name: "signature", value: "status", help: "Only profiles whose signature is verified, unsigned, invalid, untrusted,\nerror, or unchecked (catalogued before verification; ingest --full).",
                                       choices: ProfilesCommand.signatureStatuses)
    static let limit = ValueOption(name: "limit", value: "n", help: "At most N profiles.")
    static let presence = QuerySupport.presenceOptions("profiles")
    static let declared = QuerySupport.commonOptions + [
        team, bundleID, exact, QuerySupport.kindOption, QuerySupport.platformOption, expired, valid, QuerySupport.asOfOption,
        installed, device, certificateOption, entitlement, name, superseded, current, signature, limit, QuerySupport.hostOption,
    ] + presence.options

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        var filter = CatalogQueries.ProfileFilter()
        filter.teamID = arguments.value(Self.team)
        filter.bundleID = arguments.value(Self.bundleID)
        if arguments[Self.exact] {
            guard filter.bundleID != nil else { throw UsageError(message: "--exact goes with --bundle-id") }
            filter.exactBundleID = true
        }
        filter.kind = try QuerySupport.kind(arguments)
        filter.platform = try QuerySupport.platform(arguments)
        filter.expired = try arguments.either(Self.expired, or: Self.valid)
        filter.udid = arguments.value(Self.device)
        if let entitlement = arguments.value(Self.entitlement) {
            if let equals = entitlement.firstIndex(of: "=") {
                filter.entitlementKey = String(entitlement[..<equals])
                filter.entitlementValue = String(entitlement[entitlement.index(after: equals)...])
            } else {
                filter.entitlementKey = entitlement
            }
        }
        filter.nameContains = arguments.value(Self.name)
        filter.superseded = try arguments.either(Self.superseded, or: Self.current)
        switch try arguments.choice(Self.signature) {
        case "unchecked": filter.signatureUnchecked = true
        case let status?: filter.signature = ProfileSignature.Status(rawValue: status)
        case nil: break
        }
        if arguments.value(Self.limit) != nil { filter.limit = try arguments.integer(Self.limit, default: 0, range: 1...Int(Int32.max)) }
        switch (try QuerySupport.presence(arguments, Self.presence), arguments[Self.installed]) {
        case (.present, false): filter.scope = .anyLive
        case (.present, true): filter.scope = .installed
        case (.removed, false): filter.scope = .removed
        case (.any, false): filter.scope = .any
        case (_, true): throw UsageError(message: "--installed lists present profiles: it excludes --removed and --include-removed")
        }
        certificate = arguments.value(Self.certificateOption)
        query = try QueryOptions(arguments, context)
        // `--expired`/`--valid` by the day rule (README, "Days"), as `days_left` reads.
        filter.now = DaysLeft.start(query.asOf)
        filter.createdBy = DaysLeft.end(0, after: query.asOf)
        filter.host = query.host
        self.filter = filter
    }
}
