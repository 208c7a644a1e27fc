import CatalogCore
import CatalogStore
import Foundation

/// `catalog profiles`: the profiles in the catalogue, filtered.
enum ProfilesCommand: Command {
    static let name = "profiles"
    static let abstract = "List catalogued profiles, filtered by team, bundle id, kind, device, certificate…"
    static let discussion: String? = """
        With no filter: every profile that is still present somewhere (standalone or embedded),
        expired or not. --installed keeps standalone files only; --removed shows profiles whose every
        location has gone.
        """
    static let arguments: [ArgumentSpec] = []
    static let options = QuerySupport.commonOptions + [
        OptionSpec(name: "team", value: "id", help: "Only this team id."),
        OptionSpec(name: "bundle-id", value: "id", help: "Only this bundle id (as in the app id, wildcards literal)."),
        OptionSpec(name: "kind", value: "kind", help: "development, ad-hoc, app-store, enterprise or developer-id."),
        OptionSpec(name: "platform", value: "platform", help: "iOS, OSX, tvOS, watchOS, xrOS, visionOS."),
        OptionSpec(name: "expired", help: "Only profiles already expired (effective expiry)."),
        OptionSpec(name: "valid", help: "Only profiles not yet expired."),
        QuerySupport.asOfOption,
        OptionSpec(name: "installed", help: "Only profiles present as standalone files."),
        OptionSpec(name: "device", value: "udid", help: "Only profiles that list this device."),
        OptionSpec(name: "certificate", value: "sha1", help: "Only profiles that list this certificate."),
        OptionSpec(name: "entitlement", value: "key[=value]", help: "Only profiles with this entitlement (and value)."),
        OptionSpec(name: "name", value: "text", help: "Only profiles whose name contains this text."),
        OptionSpec(name: "removed", help: "Only profiles whose every location has gone."),
        OptionSpec(name: "limit", value: "n", help: "At most N profiles."),
    ]

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        var filter = try profileFilter(arguments)
        if arguments.flag("installed") && arguments.flag("removed") {
            throw UsageError(message: "--installed and --removed exclude each other")
        }
        if arguments.flag("installed") { filter.scope = .installed }
        if arguments.flag("removed") { filter.scope = .removed }
        let records = try QuerySupport.queries(arguments, context).profiles(filter)
        try QuerySupport.print(records, columns: QuerySupport.profileColumns, arguments, context)
        return 0
    }

    static func profileFilter(_ arguments: ParsedArguments) throws -> CatalogQueries.ProfileFilter {
        var filter = CatalogQueries.ProfileFilter()
        filter.teamID = arguments.value("team")
        filter.bundleID = arguments.value("bundle-id")
        filter.kind = try arguments.choice("kind", among: QuerySupport.kinds)
        filter.platform = arguments.value("platform")
        if arguments.flag("expired") && arguments.flag("valid") {
            throw UsageError(message: "--expired and --valid exclude each other")
        }
        if arguments.flag("expired") { filter.expired = true }
        if arguments.flag("valid") { filter.expired = false }
        filter.now = try arguments.date("as-of") ?? Date()
        filter.udid = arguments.value("device")
        filter.certificateSHA1 = arguments.value("certificate")
        if let entitlement = arguments.value("entitlement") {
            if let equals = entitlement.firstIndex(of: "=") {
                filter.entitlementKey = String(entitlement[..<equals])
                filter.entitlementValue = String(entitlement[entitlement.index(after: equals)...])
            } else {
                filter.entitlementKey = entitlement
            }
        }
        filter.nameContains = arguments.value("name")
        if arguments.value("limit") != nil { filter.limit = try arguments.integer("limit", default: 0, range: 1...Int(Int32.max)) }
        return filter
    }
}
