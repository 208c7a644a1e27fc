import Foundation

/// Reads an app build kept in a zip: an `.ipa`, whose app is the shortest `Payload/*.app`, or a
/// macOS app shipped as a zip (Developer ID distribution: `App.zip` holding `App.app` at its top).
/// Only the central directory, the Info.plists and embedded profiles, and the Mach-O files' headers
/// and signatures are read (a deflated binary is inflated as far as its signature, and not kept).
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
    /// An `.ipa`'s app first; failing that, the one `.app` at the top of a zip (source kind `zip`).
    package static func read(_ archive: ZipArchive,
                             policy: EmbeddedProfilePolicy = BuildArtifact.decodeEveryProfile,
                             trust: TrustAnchors? = ProfileDecoder.defaultTrust) throws -> BuildArtifact {
        let files = ZipBundleFiles(archive)
        if let prefix = appPrefix(in: archive.entries) {
            return try read(archive, files: files, app: prefix, kind: .ipa, policy: policy, trust: trust)
        }
        if let prefix = topLevelAppPrefix(in: archive.entries) {
            return try read(archive, files: files, app: prefix, kind: .zip, policy: policy, trust: trust)
        }
        throw DecodeError(.invalidBundle, "no Payload/*.app in archive, nor one .app at its top", path: archive.path)
    }

    /// The app at `prefix` (`Payload/X.app/`, `X.app/`), then every bundle nested in it that is a
    /// build of its own (see ``NestedBuilds``), each with `appPath` its folder in the zip. A nested
    /// bundle that does not read is left out and its error returned beside the others.
    package static func readBuilds(_ archive: ZipArchive, app prefix: String, kind: BuildArtifact.SourceKind,
                                   policy: EmbeddedProfilePolicy = BuildArtifact.decodeEveryProfile,
                                   trust: TrustAnchors? = ProfileDecoder.defaultTrust) throws
        -> (builds: [BuildArtifact], problems: [DecodeError]) {
        let files = ZipBundleFiles(archive)
        var builds = [try read(archive, files: files, app: prefix, kind: kind, policy: policy, trust: trust)]
        var problems: [DecodeError] = []
        // Depth first, as the walk visits an app folder's nested bundles.
        func visit(_ app: String, depth: Int) {
            guard depth < BuildBinaryReader.maximumDepth else { return }
            for nested in NestedBuilds.bundles(in: app, files) where builds.count < BuildBinaryReader.maximumBundles {
                do {
                    builds.append(try read(archive, files: files, app: nested + "/", kind: kind, policy: policy, trust: trust))
                    visit(nested, depth: depth + 1)
                } catch let error as DecodeError {
                    problems.append(error)
                } catch {
                    problems.append(DecodeError(.unreadable, "\(error)", path: files.describe(nested)))
                }
            }
        }
        visit(String(prefix.dropLast()), depth: 0)
        return (builds, problems)
    }

    /// The app at `prefix` alone, its Info.plist and embedded profile in the iOS flat layout or
    /// the macOS one (`Contents/`).
    private static func read(_ archive: ZipArchive, files: ZipBundleFiles, app prefix: String,
                             kind: BuildArtifact.SourceKind, policy: EmbeddedProfilePolicy,
                             trust: TrustAnchors?) throws -> BuildArtifact {
        let path = archive.path
        let layouts = [(prefix + "Info.plist", prefix + "embedded.mobileprovision"),
                       (prefix + "Contents/Info.plist", prefix + "Contents/embedded.provisionprofile")]
        guard let (infoName, profileName) = layouts.first(where: { files.isFile($0.0) }) else {
            throw DecodeError(.invalidBundle, "no \(prefix)Info.plist or \(prefix)Contents/Info.plist in archive", path: path)
        }
        let info = try AppInfoDecoder.decode(try files.read(infoName, limit: AppInfoDecoder.maximumSize),
                                             path: files.describe(infoName))
        var artifact = BuildArtifact(sourceKind: kind, path: path, appPath: String(prefix.dropLast()), info: info)
        if files.isFile(profileName) {
            artifact.attachEmbeddedProfile(at: files.describe(profileName), policy: policy, trust: trust) {
                try files.read(profileName, limit: ProfileDecoder.maximumSize)
            }
        }
        artifact.teamID = artifact.profile?.teamID
        artifact.readBinaries(from: files, app: String(prefix.dropLast()), trust: trust)
        return artifact
    }

    /// `Payload/X.app/` for the shortest app folder directly under `Payload/` (watch apps and
    /// extensions nest deeper), ties broken by name; failing that, `Top/Payload/X.app/` the same way
    /// (a Finder-compressed IPA). Entries under `__MACOSX/` never count.
    package static func appPrefix(in entries: [ZipEntry]) -> String? {
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

    /// `X.app/` when the zip's top level holds exactly one `.app` folder (`__MACOSX/` and
    /// `.DS_Store` aside) and it has an Info.plist (flat or in `Contents/`): a macOS app as `ditto
    /// -c -k --keepParent` or Finder's "Compress" zips it. Decided from the central directory's
    /// names alone; a folder merely named `.app` is no app, as in a folder walk.
    package static func topLevelAppPrefix(in entries: [ZipEntry]) -> String? {
        var apps = Set<Substring>()
        var infoPlists = Set<Substring>()
        for entry in entries where !entry.name.hasPrefix("__MACOSX/") {
            guard let slash = entry.name.firstIndex(of: "/") else { continue }
            let top = entry.name[..<slash]
            guard top.hasSuffix(".app"), top.count > 4 else { continue }
            apps.insert(top)
            if apps.count > 1 { return nil }
            let rest = entry.name[entry.name.index(after: slash)...]
            if rest == "Info.plist" || rest == "Contents/Info.plist" { infoPlists.insert(top) }
        }
        guard let app = apps.first, infoPlists.contains(app) else { return nil }
        return app + "/"
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
