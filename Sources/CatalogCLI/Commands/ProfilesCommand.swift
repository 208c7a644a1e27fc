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
    static let examples = [
        "catalog profiles --bundle-id com.example.app",
        "catalog profiles --expired --kind development",
        "catalog profiles --certificate 'Apple Development' --format csv",
    ]

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
