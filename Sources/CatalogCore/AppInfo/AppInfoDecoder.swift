import Foundation

/// Reads an app's `Info.plist` (XML or binary) into `AppInfo`. Version keys written as numbers are
/// read as their text; any other wrong type for a typed key is treated as absent, because
/// Info.plists are hand-edited and Xcode tolerates it.
package enum AppInfoDecoder {
    package static let maximumSize = 16 << 20

    package static func decode(_ bytes: [UInt8], path: String? = nil) throws -> AppInfo {
        do {
            guard !bytes.isEmpty else { throw DecodeError(.empty, "file is empty") }
            guard bytes.count <= maximumSize else {
                throw DecodeError(.tooLarge, "\(bytes.count) bytes is too large for an Info.plist")
            }
            guard PlistSniffer.looksLikePlist(bytes) else {
                throw DecodeError(.unrecognized, "not a property list")
            }
            let (dict, format) = try PropertyListReader.parseDictionary(bytes, "Info.plist")
            return appInfo(from: dict, format: format)
        } catch let error as DecodeError {
            throw path.map { error.at(path: $0) } ?? error
        }
    }

    package static func appInfo(from dict: PlistDictionary, format: PlistFormat) -> AppInfo {
        let platform = dict["CFBundleSupportedPlatforms"]?.array?.first?.string
            ?? dict.lenientString("DTPlatformName")
        return AppInfo(
            bundleID: dict.lenientString("CFBundleIdentifier"),
            rawShortVersion: dict.lenientString("CFBundleShortVersionString"),
            rawBuild: dict.lenientString("CFBundleVersion"),
            name: dict.lenientString("CFBundleName"),
            displayName: dict.lenientString("CFBundleDisplayName"),
            packageType: dict.lenientString("CFBundlePackageType"),
            executable: dict.lenientString("CFBundleExecutable"),
            platform: platform,
            minimumOSVersion: dict.lenientString("MinimumOSVersion") ?? dict.lenientString("LSMinimumSystemVersion"),
            format: format,
            plist: dict)
    }
}
