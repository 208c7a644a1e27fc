import Foundation

/// What an app's `Info.plist` says about it. `shortVersion` and `build` default to "0.0" and "0"
/// when absent; `formattedVersion` is `1.2 (34)`.
public struct AppInfo: Sendable, Equatable {
    public var bundleID: String?
    /// `CFBundleShortVersionString` as written (nil when absent).
    public var rawShortVersion: String?
    /// `CFBundleVersion` as written (nil when absent).
    public var rawBuild: String?
    public var name: String?
    public var displayName: String?
    /// `CFBundlePackageType`: APPL, FMWK, BNDL, XPC!, …
    public var packageType: String?
    public var executable: String?
    /// `CFBundleSupportedPlatforms` first entry, or `DTPlatformName`.
    public var platform: String?
    /// `MinimumOSVersion` (iOS family) or `LSMinimumSystemVersion` (macOS).
    public var minimumOSVersion: String?
    public var format: PlistFormat
    /// The whole plist, so callers can read keys this model does not type.
    public var plist: PlistDictionary

    public init(bundleID: String?, rawShortVersion: String?, rawBuild: String?, name: String?,
                displayName: String?, packageType: String?, executable: String?, platform: String?,
                minimumOSVersion: String?, format: PlistFormat, plist: PlistDictionary) {
        self.bundleID = bundleID
        self.rawShortVersion = rawShortVersion
        self.rawBuild = rawBuild
        self.name = name
        self.displayName = displayName
        self.packageType = packageType
        self.executable = executable
        self.platform = platform
        self.minimumOSVersion = minimumOSVersion
        self.format = format
        self.plist = plist
    }

    public var shortVersion: String { rawShortVersion ?? "0.0" }
    public var build: String { rawBuild ?? "0" }
    public var formattedVersion: String { "\(shortVersion) (\(build))" }

    /// True when the bundle id, version or build still holds a build-setting placeholder `$(…)`.
    public var unresolved: Bool {
        // By bytes, since `String.contains(_:)` searches a string generically and slowly.
        func placeholder(_ text: String?) -> Bool {
            guard let text else { return false }
            var previous: UInt8 = 0
            for byte in text.utf8 {
                if previous == UInt8(ascii: "$") && byte == UInt8(ascii: "(") { return true }
                previous = byte
            }
            return false
        }
        return placeholder(bundleID) || placeholder(rawShortVersion) || placeholder(rawBuild)
    }
}
