import CatalogCore
import CatalogStore
import Foundation

/// Turns what a person typed for a profile (`show`, `builds --profile`) into its UUID: a UUID in any
/// case, a unique prefix of one, a profile file or a build that embeds one, or a profile name.
enum ProfileLookup {
    /// How many hex digits a UUID prefix needs, as for a certificate digest's.
    static let minimumPrefix = 8

    /// The UUID `target` names: a full UUID as typed (catalogued or not); the path of a known
    /// location or build (on `host`, when given), else of a file decoded for it; a prefix of at least
    /// ``minimumPrefix`` hex digits that starts one catalogued UUID; else a profile name, exact (any
    /// case) or a unique part of one. An ambiguous prefix or name lists the candidates.
    static func uuid(_ target: String, host: String? = nil, _ queries: CatalogQueries) throws -> String {
        if target.contains("/") || FileManager.default.fileExists(atPath: target) {
            return try uuid(atPath: target, host: host, queries)
        }
        if UUID(uuidString: target) != nil { return target.uppercased() }
        let digits = target.filter { $0 != "-" }
        if digits.count >= minimumPrefix, digits.count <= 32, digits.allSatisfy(\.isHexDigit) {
            let matches = try queries.profileUUIDs(startingWith: digits)
            if matches.count == 1 { return matches[0].uuid }
            if matches.count > 1 {
                throw CLIError("'\(target)' is the start of \(matches.count) profile UUIDs; type more digits:", details: list(matches))
            }
        }
        let named = try queries.profiles(named: target)
        switch named.count {
        case 0: throw CLIError("no profile '\(target)' in the catalogue (by UUID, UUID prefix, path or name)")
        case 1: return named[0].uuid
        default: throw CLIError("'\(target)' names \(named.count) profiles; give one by UUID:", details: list(named))
        }
    }

    /// The profile at `target`, or embedded in the build there: known to the catalogue first, else decoded.
    private static func uuid(atPath target: String, host: String?, _ queries: CatalogQueries) throws -> String {
        let path = URL(fileURLWithPath: CatalogueLocation.absolute(target)).standardizedFileURL.path
        if let known = try queries.profileUUID(atPath: path, host: host) { return known }
        if let build = try queries.build(atPath: path, host: host) {
            guard let uuid = build.profileUUID else { throw CLIError("\(target): the build there embeds no provisioning profile") }
            return uuid
        }
        let decoded: DecodedFile
        do {
            decoded = try FileDecoder.decode(path: target)
        } catch let error as DecodeError {
            throw CLIError("\(target): \(error.message)")
        }
        switch decoded {
        case .profile(let profile):
            return profile.uuid
        case .build(let artifact):
            if let profile = artifact.profile { return profile.uuid }
            if let error = artifact.profileError { throw CLIError("\(target): its embedded profile does not decode: \(error.message)") }
            throw CLIError("\(target): the build embeds no provisioning profile")
        case .infoPlist:
            throw CLIError("'\(target)' is an Info.plist, not a provisioning profile or a build that embeds one")
        }
    }

    private static func list(_ matches: [CatalogQueries.ProfileMatch]) -> [String] {
        matches.prefix(20).map { "\($0.uuid)  \($0.name)" } + (matches.count > 20 ? ["… and \(matches.count - 20) more"] : [])
    }
}
