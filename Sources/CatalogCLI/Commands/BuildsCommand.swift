import CatalogCore
import CatalogStore
import Foundation

/// `catalog builds [BUNDLE_ID]`: build history, newest version first.
enum BuildsCommand: Command {
    static let name = "builds"
    static let abstract = "Build history: which build shipped which version, and what it embeds."
    static let discussion: String? = """
        Newest version first with version-aware ordering (1.10 after 1.9), then newest build.
        Each build shows its source (app, ipa, xcarchive, plist), path, embedded profile and archive date,
        and when it stops launching: its embedded profile's effective expiry (launches_until).
        """
    static let arguments = [ArgumentSpec(name: "bundle-id", help: "Only builds of this bundle id.", optional: true)]
    static let options = QuerySupport.commonOptions + [
        OptionSpec(name: "version", value: "v", help: "Only this marketing version (CFBundleShortVersionString)."),
        OptionSpec(name: "build", value: "b", help: "Only this build number (CFBundleVersion)."),
        OptionSpec(name: "team", value: "id", help: "Only this team."),
        OptionSpec(name: "profile", value: "profile", help: "Only builds that embed this profile: a UUID or a unique prefix of 8+ hex\ndigits, a path or a name, as show takes them."),
        OptionSpec(name: "uuid", value: "uuid", help: "Only builds with an executable or dSYM of this Mach-O UUID (a crash report's;\nany case, dashes optional), with where it is in each."),
        OptionSpec(name: "since", value: "date", help: "Only builds archived (or first seen) on or after this date."),
        OptionSpec(name: "limit", value: "n", help: "At most N builds."),
        QuerySupport.asOfOption,
        QuerySupport.hostOption,
    ] + QuerySupport.presenceOptions("builds")

    static let columns: [Column] = [
        Column(key: "bundle_id", header: "BUNDLE ID"),
        Column(key: "formatted_version", header: "VERSION"),
        Column(key: "source_kind", header: "SOURCE"),
        Column(key: "archived_at", header: "ARCHIVED", display: RelativeTime.day),
        Column(key: "profile_uuid", header: "PROFILE"),
        Column(key: "profile_kind", header: "KIND"),
        Column(key: "launches_until", header: "LAUNCHES UNTIL", display: RelativeTime.day),
        Column.host,
        Column(key: "path", header: "PATH"),
        // Only `--uuid`: where the binary is inside the build.
        Column(key: "binary_path", header: "BINARY", tableOnlyWhenSet: true),
        Column(key: "dsym_path", header: "DSYM", tableOnlyWhenSet: true),
        Column(key: "removed_at", header: "REMOVED", display: RelativeTime.day),
    ].ranked(["bundle_id", "formatted_version", "launches_until", "source_kind", "removed_at", "profile_kind", "path", "host",
              "binary_path", "dsym_path", "archived_at", "profile_uuid"])

    static func run(_ options: BuildsOptions, _ context: CommandContext) throws -> Int32 {
        let queries = try QuerySupport.queries(options.query, context)
        var filter = options.filter
        if let typed = filter.profileUUID { filter.profileUUID = try ProfileLookup.uuid(typed, host: options.query.host, queries) }
        let keys = BuildSummary.outputKeys + (filter.binaryUUID == nil ? [] : BuildSummary.binaryMatchKeys)
        try QuerySupport.stream(columns: columns, keys: keys, options.query, context) { stream in
            try queries.forEachBuild(filter) { stream.write($0.output(now: filter.now)) }
        }
        return 0
    }
}
