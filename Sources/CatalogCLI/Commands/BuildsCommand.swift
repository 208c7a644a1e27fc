import CatalogCore
import CatalogStore
import Foundation

/// `catalog builds [BUNDLE_ID]`: build history, newest version first.
enum BuildsCommand: Command {
    static let name = "builds"
    static let abstract = "Build history: which build shipped which version, and what it embeds."
    static let discussion: String? = """
        Newest version first with version-aware ordering (1.10 after 1.9), then newest build.
        Each build shows its source (app, ipa, xcarchive, zip, plist), path, embedded profile and archive date,
        and when it stops launching (launches_until, with its cause and reason): development, ad-hoc
        and enterprise builds at the earlier of the profile's expiry and the signing certificate's,
        Developer ID ones at the profile's expiry, App Store ones never; the soonest over the app and
        its nested bundles (docs/trust.md, "When a build stops launching").
        SIGNING is ok or the first signing problem at --as-of (see catalog verify), SIGNED BY the
        certificate the app's executable was signed with.
        """
    static let arguments = [ArgumentSpec(name: "bundle-id", help: "Only builds of this bundle id.", optional: true)]
    static let examples = [
        "catalog builds com.example.app",
        "catalog builds --profile 6F1C2E6A --limit 10",
        "catalog builds --uuid 22f2ef0f-3cb2-b91a-ad73-2f5b5124af60",
    ]

    static let columns: [Column] = [
        Column(key: "bundle_id", header: "BUNDLE ID"),
        Column(key: "formatted_version", header: "VERSION"),
        Column(key: "source_kind", header: "SOURCE"),
        Column(key: "archived_at", header: "ARCHIVED", display: RelativeTime.day),
        Column(key: "profile_uuid", header: "PROFILE"),
        Column(key: "profile_kind", header: "KIND"),
        Column(key: "launches_until", header: "LAUNCHES UNTIL", display: RelativeTime.day),
        Column(key: "signing_status", header: "SIGNING"),
        Column(key: "signing_certificate_name", header: "SIGNED BY"),
        Column.host,
        Column(key: "path", header: "PATH"),
        // Only `--uuid`: where the binary is inside the build.
        Column(key: "binary_path", header: "BINARY", tableOnlyWhenSet: true),
        Column(key: "dsym_path", header: "DSYM", tableOnlyWhenSet: true),
        Column(key: "removed_at", header: "REMOVED", display: RelativeTime.day),
    ].ranked(["bundle_id", "formatted_version", "launches_until", "signing_status", "source_kind", "removed_at", "profile_kind",
              "path", "host", "binary_path", "dsym_path", "signing_certificate_name", "archived_at", "profile_uuid"])

    static func run(_ options: BuildsOptions, _ context: CommandContext) throws -> Int32 {
        let queries = try QuerySupport.queries(options.query, context)
        var filter = options.filter
        if let typed = filter.profileUUID { filter.profileUUID = try ProfileLookup.uuid(typed, host: options.query.host, queries) }
        let keys = BuildSummary.outputKeys + (filter.binaryUUID == nil ? [] : BuildSummary.binaryMatchKeys)
        try QuerySupport.stream(columns: columns, keys: keys, options.query, context) { stream in
            try queries.forEachBuild(filter) { stream.write($0.output(now: filter.now)) }
            // dSYMs kept outside archives (a .dSYM folder, a zip) with that UUID follow the builds.
            if let uuid = filter.binaryUUID {
                for match in try queries.debugSymbols(uuid: uuid, host: filter.host) where match.kept(by: filter) {
                    stream.write(match.output())
                }
            }
        }
        return 0
    }
}
