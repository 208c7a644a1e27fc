import CatalogCore
import CatalogStore
import Foundation

/// `catalog show UUID|PATH|NAME`: everything the catalogue knows about one profile.
enum ShowCommand: Command {
    static let name = "show"
    static let abstract = "Show everything known about one profile, by UUID, name or path (of it or a build)."
    static let discussion: String? = """
        Fields, entitlements, certificates, devices, every location with first/last seen, the builds
        that embed it, and older/newer profiles with the same name, app id and team (renewals).
        A PATH (a profile, or an .app, .ipa, .xcarchive or app zip: the profile it embeds) is looked up among
        known locations and builds, else decoded to find its UUID.
        """
    static let arguments = [ArgumentSpec(name: "profile", help: "A profile UUID (any case) or a unique prefix of 8+ hex digits, the path\nof a profile file or of a build that embeds one, or its name (exact, else a\nunique part of it).")]
    static let examples = [
        "catalog show 6F1C2E6A-1B0E-4C41-9E53-2D3B4A5C6D7E",
        "catalog show ~/Downloads/App.mobileprovision --json",
    ]

    static func run(_ options: ShowOptions, _ context: CommandContext) throws -> Int32 {
        let target = options.profile
        let queries = try QuerySupport.queries(options.query, context)
        let uuid = try ProfileLookup.uuid(target, host: options.query.host, queries)
        guard let detail = try queries.profileDetail(uuid: uuid, host: options.query.host, asOf: options.query.asOf) else {
            throw CLIError(uuid == target.uppercased() ? "no profile '\(target)' in the catalogue"
                               : "no profile \(uuid) (from '\(target)') in the catalogue")
        }
        QuerySupport.printObject(detail.output(now: options.query.asOf), options.query, context)
        return 0
    }
}
