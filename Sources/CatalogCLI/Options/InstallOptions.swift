import Foundation

/// `catalog install`'s options, parsed and checked once.
struct InstallOptions: CommandOptions {
    /// The catalogue, the output format and `--as-of` (the day "expired" is judged on).
    var query: QueryOptions
    /// The profile files, as typed.
    var paths: [String]
    /// `--dir`, absolute; nil: the selected Xcode's folder.
    var folder: String?
    var allowUntrusted: Bool
    var allowExpired: Bool
    /// `--host` or `$CATALOG_HOST`: the build host the installed files are recorded under.
    var host: String?

    static let dir = ValueOption(name: "dir", value: "dir",
                                 help: "Install into this folder (created when missing) instead of the selected\nXcode's; required where there is no Xcode.")
    static let allowUntrustedFlag = Flag(name: "allow-untrusted",
                                         help: "Also install a profile not signed by Apple: unsigned, untrusted or invalid.")
    static let allowExpiredFlag = Flag(name: "allow-expired", help: "Also install a profile that has expired (days_left < 0 at --as-of).")
    static let hostOption = HostName.option(help: "The build host the installed files are recorded under (default: as for ingest).")
    static let declared: [any OptionHandle] = [CatalogueLocation.option] + OutputFormat.options + [
        dir, allowUntrustedFlag, allowExpiredFlag, QuerySupport.asOfOption, hostOption,
    ]

    init(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        query = try QueryOptions(arguments, context)
        paths = arguments.positionals
        folder = arguments.value(Self.dir).map(CatalogueLocation.absolute)
        allowUntrusted = arguments[Self.allowUntrustedFlag]
        allowExpired = arguments[Self.allowExpiredFlag]
        host = try HostName.given(arguments, Self.hostOption, context.environment)
    }
}
