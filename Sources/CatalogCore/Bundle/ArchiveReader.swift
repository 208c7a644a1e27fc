import Foundation

/// Reads an `.xcarchive` folder: `Info.plist` with `ApplicationProperties` (bundle id, versions,
/// signing identity, team) and the app at `Products/<ApplicationPath>`. Archives without
/// `ApplicationProperties` fall back to the first `Products/Applications/*.app`.
package enum ArchiveReader {
    package static func isArchive(_ path: String) -> Bool {
        path.hasSuffix(".xcarchive") || FileBytes.isDirectory(path + "/Products/Applications")
    }

    package static func read(_ archivePath: String,
                             policy: EmbeddedProfilePolicy = BuildArtifact.decodeEveryProfile,
                             trust: TrustAnchors? = ProfileDecoder.defaultTrust) throws -> BuildArtifact {
        let plistPath = archivePath + "/Info.plist"
        var archiveInfo = PlistDictionary()
        if FileBytes.isFile(plistPath) {
            let bytes = try FileBytes.read(plistPath, limit: AppInfoDecoder.maximumSize)
            do {
                archiveInfo = try PropertyListReader.parseDictionary(bytes, "archive Info.plist").dictionary
            } catch let error as DecodeError {
                throw error.at(path: plistPath)
            }
        }
        let properties = archiveInfo["ApplicationProperties"]?.dictionary
        var appRelative = properties?.lenientString("ApplicationPath").map { "Products/" + $0 }
        if appRelative.map({ !FileBytes.isDirectory(archivePath + "/" + $0) }) ?? true {
            appRelative = FileBytes.children(of: archivePath + "/Products/Applications")
                .first { $0.hasSuffix(".app") }
                .map { "Products/Applications/" + $0 } ?? appRelative
        }

        var artifact: BuildArtifact
        if let appRelative, FileBytes.isDirectory(archivePath + "/" + appRelative),
           AppBundleReader.layout(of: archivePath + "/" + appRelative) != nil {
            artifact = try AppBundleReader.read(archivePath + "/" + appRelative, sourceKind: .xcarchive, policy: policy,
                                                trust: trust, binaries: false)
            artifact.readBinaries(from: FolderBundleFiles(root: archivePath), app: appRelative, debugSymbols: "dSYMs", trust: trust)
        } else if let properties {
            artifact = BuildArtifact(sourceKind: .xcarchive, path: archivePath,
                                     info: AppInfoDecoder.appInfo(from: properties, format: .xml))
            artifact.readBinaries(from: FolderBundleFiles(root: archivePath), app: nil, debugSymbols: "dSYMs", trust: trust)
        } else {
            throw DecodeError(.invalidBundle,
                              "archive has neither ApplicationProperties nor Products/Applications/*.app",
                              path: archivePath)
        }
        // The archive's own record of what it built wins over the app's plist when both exist.
        if let properties {
            if let id = properties.lenientString("CFBundleIdentifier") { artifact.info.bundleID = id }
            if let short = properties.lenientString("CFBundleShortVersionString") { artifact.info.rawShortVersion = short }
            if let build = properties.lenientString("CFBundleVersion") { artifact.info.rawBuild = build }
        }
        artifact.sourceKind = .xcarchive
        artifact.path = archivePath
        artifact.appPath = appRelative
        artifact.archivedAt = archiveInfo["CreationDate"]?.date
        artifact.scheme = archiveInfo.lenientString("SchemeName") ?? archiveInfo.lenientString("Name")
        artifact.signingIdentity = properties?.lenientString("SigningIdentity")
        artifact.teamID = properties?.lenientString("Team")
        return artifact
    }
}
