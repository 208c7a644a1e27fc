import Foundation

/// Reads an `.app` folder: the iOS flat layout (`X.app/Info.plist`, `X.app/embedded.mobileprovision`)
/// or the macOS one (`X.app/Contents/Info.plist`, `X.app/Contents/embedded.provisionprofile`).
package enum AppBundleReader {
    /// Where an app keeps its Info.plist and embedded profile: the iOS flat layout first, then macOS.
    package static func possibleLayouts(of appPath: String) -> [(infoPlist: String, profile: String)] {
        [(appPath + "/Info.plist", appPath + "/embedded.mobileprovision"),
         (appPath + "/Contents/Info.plist", appPath + "/Contents/embedded.provisionprofile")]
    }

    /// The Info.plist and embedded-profile paths of an app folder, or nil when it has no Info.plist.
    package static func layout(of appPath: String) -> (infoPlist: String, profile: String)? {
        possibleLayouts(of: appPath).first { FileBytes.isFile($0.infoPlist) }
    }

    /// The app at `appPath`, with its binaries unless `binaries` is false (an archive reads them
    /// itself, to name them from the archive's top).
    package static func read(_ appPath: String, sourceKind: BuildArtifact.SourceKind = .app,
                             policy: EmbeddedProfilePolicy = BuildArtifact.decodeEveryProfile,
                             trust: TrustAnchors? = ProfileDecoder.defaultTrust,
                             binaries: Bool = true) throws -> BuildArtifact {
        guard let layout = layout(of: appPath) else {
            throw DecodeError(.invalidBundle, "no Info.plist or Contents/Info.plist in app bundle", path: appPath)
        }
        let info = try AppInfoDecoder.decode(try FileBytes.read(layout.infoPlist, limit: AppInfoDecoder.maximumSize),
                                             path: layout.infoPlist)
        var artifact = BuildArtifact(sourceKind: sourceKind, path: appPath, info: info)
        if FileBytes.isFile(layout.profile) {
            artifact.attachEmbeddedProfile(at: layout.profile, policy: policy, trust: trust) {
                try FileBytes.read(layout.profile, limit: ProfileDecoder.maximumSize)
            }
        }
        if binaries {
            artifact.readBinaries(from: FolderBundleFiles(root: appPath), app: "", trust: trust)
        }
        return artifact
    }
}
