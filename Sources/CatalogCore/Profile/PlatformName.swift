/// One vocabulary for Apple platforms — iOS, macOS, tvOS, watchOS, visionOS — and the spellings
/// files use for them: a profile's `Platform` array says `iOS`, `OSX`, `tvOS`, `watchOS`, `xrOS`,
/// `visionOS`; an app's `CFBundleSupportedPlatforms` / `DTPlatformName` says `iPhoneOS`, `MacOSX`,
/// `AppleTVOS`, `WatchOS`, `XROS` (and `…Simulator`). People type any of these, in any case.
package enum PlatformName: String, CaseIterable, Sendable {
    case iOS
    case macOS
    case tvOS
    case watchOS
    case visionOS

    /// Every spelling accepted for this platform, lower-cased: the names above, the profile and
    /// Info.plist spellings, and common aliases.
    var aliases: [String] {
        switch self {
        case .iOS: return ["ios", "iphoneos", "iphone", "ipados"]
        case .macOS: return ["macos", "osx", "macosx", "mac"]
        case .tvOS: return ["tvos", "appletvos", "appletv"]
        case .watchOS: return ["watchos", "watch"]
        case .visionOS: return ["visionos", "xros", "vision"]
        }
    }

    /// The values a profile's `Platform` array holds for this platform, as written.
    package var profileValues: [String] {
        switch self {
        case .iOS: return ["iOS"]
        case .macOS: return ["OSX", "macOS"]
        case .tvOS: return ["tvOS"]
        case .watchOS: return ["watchOS"]
        case .visionOS: return ["xrOS", "visionOS"]
        }
    }

    /// The platform a person typed (`macOS`, `osx`, `iPhoneOS`, `xros`, …), or nil.
    package init?(typed text: String) {
        var key = text.lowercased()
        if key.hasSuffix("simulator") { key.removeLast("simulator".count) }
        guard let found = Self.allCases.first(where: { $0.aliases.contains(key) }) else { return nil }
        self = found
    }

    /// The platform of a profile's `Platform` array: its first known value; an absent or empty
    /// array means iOS (2013-era profiles).
    package init(profilePlatforms platforms: [String]) {
        self = platforms.lazy.compactMap(PlatformName.init(typed:)).first ?? .iOS
    }

    /// What a usage error lists.
    package static var accepted: String {
        allCases.map(\.rawValue).joined(separator: ", ") + " (or OSX, iPhoneOS, xrOS, …)"
    }
}
