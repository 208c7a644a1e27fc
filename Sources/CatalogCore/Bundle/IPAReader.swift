import Foundation

/// Reads an `.ipa`: a zip whose app is the shortest `Payload/*.app`. Only the central directory,
/// the Info.plists and embedded profiles, and the Mach-O files' headers and signatures are read
/// (a deflated binary is inflated as far as its signature, and not kept).
///
/// An IPA zipped by Finder's "Compress" puts everything under one top folder
/// (`Name/Payload/X.app/…`) and adds `__MACOSX/` AppleDouble entries: when there is no top-level
/// `Payload/`, `*/Payload/*.app` one level down is accepted, and `__MACOSX/` is always ignored.
package enum IPAReader {
    package static func read(_ path: String,
                             policy: EmbeddedProfilePolicy = BuildArtifact.decodeEveryProfile,
                             trust: TrustAnchors? = ProfileDecoder.defaultTrust) throws -> BuildArtifact {
        try read(try ZipArchive(path: path), policy: policy, trust: trust)
    }

    /// An archive already opened (from a file, or from bytes in memory); its `path` names the build.
    package static func read(_ archive: ZipArchive,
                             policy: EmbeddedProfilePolicy = BuildArtifact.decodeEveryProfile,
                             trust: TrustAnchors? = ProfileDecoder.defaultTrust) throws -> BuildArtifact {
        let path = archive.path
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
            artifact.attachEmbeddedProfile(at: "\(path)!\(profileEntry.name)", policy: policy, trust: trust) {
                try archive.contents(of: profileEntry, limit: ProfileDecoder.maximumSize)
            }
        }
        artifact.teamID = artifact.profile?.teamID
        artifact.readBinaries(from: ZipBundleFiles(archive), app: String(appPrefix.dropLast()), trust: trust)
        return artifact
    }

    /// `Payload/X.app/` for the shortest app folder directly under `Payload/` (watch apps and
    /// extensions nest deeper), ties broken by name; failing that, `Top/Payload/X.app/` the same way
    /// (a Finder-compressed IPA). Entries under `__MACOSX/` never count.
    static func appPrefix(in entries: [ZipEntry]) -> String? {
        var best: String?
        var nested: String?
        for entry in entries where !entry.name.hasPrefix("__MACOSX/") {
            if let prefix = appPrefix(of: entry.name, under: "") {
                best = shorter(best, prefix)
            } else if let top = entry.name.firstIndex(of: "/"),
                      let prefix = appPrefix(of: entry.name, under: String(entry.name[...top])) {
                nested = shorter(nested, prefix)
            }
        }
        return best ?? nested
    }

    /// `<folder>Payload/X.app/` when `name` lies inside such an app folder.
    private static func appPrefix(of name: String, under folder: String) -> String? {
        guard name.hasPrefix(folder + "Payload/") else { return nil }
        let rest = name.dropFirst(folder.count + "Payload/".count)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let app = rest[..<slash]
        guard app.hasSuffix(".app"), app.count > 4 else { return nil }
        return "\(folder)Payload/\(app)/"
    }

    private static func shorter(_ current: String?, _ candidate: String) -> String {
        guard let current else { return candidate }
        return current.count < candidate.count || (current.count == candidate.count && current <= candidate)
            ? current : candidate
    }
}
