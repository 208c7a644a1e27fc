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
    static let arguments = [ArgumentSpec(name: "profile", help: "A profile UUID (any case), the path of a profile file, or its name\n(exact, else a unique part of it).")]
    static let options = QuerySupport.commonOptions + [QuerySupport.asOfOption, QuerySupport.hostOption]

    static func run(_ options: ShowOptions, _ context: CommandContext) throws -> Int32 {
        let target = options.profile
        let queries = try QuerySupport.queries(options.query, context)
        let uuid = try resolve(target, host: options.query.host, queries)
        guard let detail = try queries.profileDetail(uuid: uuid, host: options.query.host) else {
            throw CLIError("no profile '\(target)' in the catalogue")
        }
        QuerySupport.printObject(detail.output(now: options.query.asOf), options.query, context)
        return 0
    }

    /// The UUID `target` names: a UUID as typed, a known path (on `host`, when given) or a decodable
    /// one, else a profile name.
    static func resolve(_ target: String, host: String? = nil, _ queries: CatalogQueries) throws -> String {
        if target.contains("/") || FileManager.default.fileExists(atPath: target) {
            let path = URL(fileURLWithPath: CatalogueLocation.absolute(target)).standardizedFileURL.path
            if let known = try queries.profileUUID(atPath: path, host: host) { return known }
            do {
                guard case .profile(let profile) = try FileDecoder.decode(path: target) else {
                    throw CLIError("'\(target)' is not a provisioning profile")
                }
                return profile.uuid
            } catch let error as DecodeError {
                throw CLIError("\(target): \(error.message)")
            }
        }
        if UUID(uuidString: target) != nil { return target.uppercased() }
        let named = try queries.profiles(named: target)
        switch named.count {
        case 0: throw CLIError("no profile '\(target)' in the catalogue (by UUID, path or name)")
        case 1: return named[0].uuid
        default:
            throw CLIError("'\(target)' names \(named.count) profiles; show one by UUID:",
                           details: named.prefix(20).map { "\($0.uuid)  \($0.name)" }
                               + (named.count > 20 ? ["… and \(named.count - 20) more"] : []))
        }
    }
}
