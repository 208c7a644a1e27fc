import Foundation

/// Reads an `.ipa`: a zip whose app is the shortest `Payload/*.app`. Only the central directory,
/// the app's `Info.plist` and its `embedded.mobileprovision` are read.
package enum IPAReader {
    package static func read(_ path: String,
                             policy: EmbeddedProfilePolicy = BuildArtifact.decodeEveryProfile) throws -> BuildArtifact {
        let archive = try ZipArchive(path: path)
        guard let appPrefix = appPrefix(in: archive.entries) else {
            throw DecodeError(.invalidBundle, "no Payload/*.app in archive", path: path)
        }
        guard let infoEntry = archive.entries.first(where: { $0.name == appPrefix + "Info.plist" }) else {
            throw DecodeError(.invalidBundle, "no \(appPrefix)Info.plist in archive", path: path)
        }
        let infoBytes = try archive.contents(of: infoEntry, limit: AppInfoDecoder.maximumSize)
        let info = try AppInfoDecoder.decode(infoBytes, path: "\(path)!\(infoEntry.name)")
        var artifact = BuildArtifact(sourceKind: .ipa, path: path, appPath: String(appPrefix.dropLast()), info: info)
        if let profileEntry = archive.entries.first(where: { $0.name == appPrefix + "embedded.mobileprovision" }) {
            artifact.attachEmbeddedProfile(at: "\(path)!\(profileEntry.name)", policy: policy) {
                try archive.contents(of: profileEntry, limit: ProfileDecoder.maximumSize)
            }
        }
        artifact.teamID = artifact.profile?.teamID
        return artifact
    }

    /// `Payload/X.app/` for the shortest app folder directly under `Payload/` (watch apps and
    /// extensions nest deeper), ties broken by name.
    static func appPrefix(in entries: [ZipEntry]) -> String? {
        var best: String?
        for entry in entries where entry.name.hasPrefix("Payload/") {
            let rest = entry.name.dropFirst("Payload/".count)
            guard let slash = rest.firstIndex(of: "/") else { continue }
            let folder = rest[..<slash]
            guard folder.hasSuffix(".app"), folder.count > 4 else { continue }
            let prefix = "Payload/\(folder)/"
            if let current = best, current.count < prefix.count || (current.count == prefix.count && current <= prefix) {
                continue
            }
            best = prefix
        }
        return best
    }
}
