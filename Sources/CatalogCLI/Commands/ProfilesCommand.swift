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
        OptionSpec(name: "bundle-id", value: "id", help: "Only profiles for this bundle id, in any case, and the wildcard\nprofiles that cover it (com.x.*, *), marked bundle_id_match: wildcard."),
        OptionSpec(name: "exact", help: "With --bundle-id: only that exact id, no wildcard profiles."),
        QuerySupport.kindOption,
        QuerySupport.platformOption,
        OptionSpec(name: "expired", help: "Only profiles expired (days_left < 0: effective expiry before --as-of's UTC day)."),
        OptionSpec(name: "valid", help: "Only profiles not expired (days_left >= 0)."),
        QuerySupport.asOfOption,
        OptionSpec(name: "installed", help: "Only profiles present as standalone files."),
        OptionSpec(name: "device", value: "udid", help: "Only profiles that list this device (any case)."),
        OptionSpec(name: "certificate", value: "sha-or-name", help: "Only profiles that list this certificate: SHA-1 or SHA-256 (any case,\nspaces or colons), a unique prefix of 8+ hex digits, or a common-name search."),
        OptionSpec(name: "entitlement", value: "key[=value]", help: "Only profiles with this entitlement (and value, or one member of an array)."),
        OptionSpec(name: "name", value: "text", help: "Only profiles whose name contains this text."),
        OptionSpec(name: "superseded", help: "Only profiles a renewal supersedes (see superseded_by)."),
        OptionSpec(name: "current", help: "Only profiles nothing supersedes."),
        OptionSpec(name: "signature", value: "status", help: "Only profiles whose signature is verified, unsigned, invalid, untrusted,\nerror, or unchecked (catalogued before verification; ingest --full).",
                   choices: signatureStatuses),
        OptionSpec(name: "limit", value: "n", help: "At most N profiles."),
        QuerySupport.hostOption,
    ] + QuerySupport.presenceOptions("profiles")

    static func run(_ options: ProfilesOptions, _ context: CommandContext) throws -> Int32 {
        var filter = options.filter
        let queries = try QuerySupport.queries(options.query, context)
        if let certificate = options.certificate {
            filter.certificateSHA1s = try QuerySupport.certificateSHA1s(certificate, queries)
        }
        let keys = ProfileSummary.outputKeys + (filter.bundleID != nil && !filter.exactBundleID ? ["bundle_id_match"] : [])
        try QuerySupport.stream(columns: QuerySupport.profileColumns, keys: keys, options.query, context) { stream in
            try queries.forEachProfile(filter) { stream.write($0, now: filter.now) }
        }
        return 0
    }

    static let signatureStatuses = ProfileSignature.Status.allCases.map(\.rawValue) + ["unchecked"]
}
