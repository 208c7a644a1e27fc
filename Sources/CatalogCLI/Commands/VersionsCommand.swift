import CatalogCore
import CatalogStore
import Foundation

/// `catalog versions BUNDLE_ID`: one row per marketing version.
enum VersionsCommand: Command {
    static let name = "versions"
    static let abstract = "One row per version of an app: its build numbers, when seen, archive dates."
    static let arguments = [ArgumentSpec(name: "bundle-id", help: "The app's bundle id.")]
    static let examples = [
        "catalog versions com.example.app",
        "catalog versions com.example.app --include-removed --json",
    ]

    static let columns: [Column] = [
        Column(key: "short_version", header: "VERSION"),
        Column(key: "build_numbers", header: "BUILDS"),
        Column(key: "first_seen", header: "FIRST SEEN", display: RelativeTime.day),
        Column(key: "last_seen", header: "LAST SEEN", display: RelativeTime.day),
        Column(key: "first_archived_at", header: "FIRST ARCHIVED", display: RelativeTime.day),
        Column(key: "last_archived_at", header: "LAST ARCHIVED", display: RelativeTime.day),
        Column(key: "launches_until", header: "LAUNCHES UNTIL", display: RelativeTime.day),
    ].ranked(["short_version", "build_numbers", "launches_until", "last_seen", "first_seen", "last_archived_at",
              "first_archived_at"])

    static func run(_ options: VersionsOptions, _ context: CommandContext) throws -> Int32 {
        let records = try QuerySupport.queries(options.query, context)
            .versions(bundleID: options.bundleID, presence: options.presence, host: options.query.host).map(\.output)
        QuerySupport.print(records, columns: columns, options.query, context)
        return 0
    }
}
