import CatalogCore
import CatalogStore
import Foundation

/// `catalog show UUID|PATH`: everything the catalogue knows about one profile.
enum ShowCommand: Command {
    static let name = "show"
    static let abstract = "Show everything known about one profile, by UUID or by path."
    static let discussion: String? = """
        Fields, entitlements, certificates, devices, every location with first/last seen, the builds
        that embed it, and older/newer profiles with the same name, app id and team (renewals).
        A PATH is looked up among known locations, else decoded to find its UUID.
        """
    static let arguments = [ArgumentSpec(name: "uuid-or-path", help: "A profile UUID or the path of a profile file.")]
    static let options = QuerySupport.commonOptions + [QuerySupport.asOfOption]

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        let target = arguments.positionals[0]
        let queries = try QuerySupport.queries(arguments, context)
        var uuid = target.uppercased()
        if target.contains("/") || FileManager.default.fileExists(atPath: target) {
            let path = URL(fileURLWithPath: CatalogueLocation.absolute(target)).standardizedFileURL.path
            if let known = try queries.profileUUID(atPath: path) {
                uuid = known
            } else {
                do {
                    guard case .profile(let profile) = try FileDecoder.decode(path: target) else {
                        throw CLIError("\(target) is not a provisioning profile")
                    }
                    uuid = profile.uuid
                } catch let error as DecodeError {
                    throw CLIError("\(target): \(error.message)")
                }
            }
        }
        guard let detail = try queries.profileDetail(uuid: uuid, now: try arguments.date("as-of") ?? Date()) else {
            throw CLIError("no profile \(uuid) in the catalogue")
        }
        try QuerySupport.printObject(detail, arguments, context)
        return 0
    }
}
