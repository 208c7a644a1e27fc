import CatalogCore
import CatalogStore
import Foundation

extension DebugSymbolsMatch {
    /// A dSYM kept outside an archive as `builds --uuid` lists it: a build row's keys (so scripts read
    /// one shape), `type` and `source_kind` saying what it is, the build's own facts null.
    func output() -> JSONValue {
        let version = [shortVersion, build.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        var fields: [(String, JSONValue)] = []
        let keys = BuildSummary.outputKeys.filter { !$0.contains(".") } + BuildSummary.listKeys.map(\.key) + BuildSummary.binaryMatchKeys
        for key in keys {
            let value: JSONValue
            switch key {
            case "type": value = .string("dsym")
            case "bundle_id": value = .optional(bundleID)
            case "short_version": value = .optional(shortVersion)
            case "build": value = .optional(build)
            case "formatted_version": value = version.isEmpty ? .null : .string(version)
            case "source_kind": value = .string(isZip ? "zip" : "dsym")
            case "host": value = .optional(host)
            case "path": value = .string(path)
            case "first_seen": value = .optional(firstSeen)
            case "last_seen": value = .optional(lastSeen)
            case "removed_at": value = .optional(removedAt)
            case "executables", "dsyms", "signing_problems": value = .array([])
            case "binary_uuid": value = .string(uuid)
            case "binary_arch": value = .optional(arch)
            case "dsym_path": value = .string(member)
            default: value = .null
            }
            fields.append((key, value))
        }
        return .object(fields)
    }

    /// As a crash's `dsyms[]` names it.
    var crashJSON: JSONValue {
        .object([("path", .string(dwarfPath)), ("uuid", .string(uuid)), ("arch", .optional(arch))])
    }

    /// Whether a `builds` filter other than the UUID keeps it: a dSYM has a bundle id and a version,
    /// but no team, profile, archive date or launch limit.
    func kept(by filter: CatalogQueries.BuildFilter) -> Bool {
        if filter.teamID != nil || filter.profileUUID != nil || filter.since != nil || filter.launch != nil
            || filter.latestOfEachApp || filter.installableBy != nil || filter.launchesUntilBy != nil { return false }
        if let bundle = filter.bundleID, bundle.lowercased() != bundleID?.lowercased() { return false }
        if let version = filter.shortVersion, version != shortVersion { return false }
        if let wanted = filter.build, wanted != build { return false }
        switch filter.presence {
        case .present: return removedAt == nil
        case .removed: return removedAt != nil
        case .any: return true
        }
    }
}
