/// The platform a Mach-O slice was built for: `LC_BUILD_VERSION`'s `platform` (`<mach-o/loader.h>`
/// `PLATFORM_*`), or the platform an older `LC_VERSION_MIN_*` command implies.
public struct MachOPlatform: Sendable, Equatable, Hashable, RawRepresentable {
    public var rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    public static let macOS = MachOPlatform(rawValue: 1)
    public static let iOS = MachOPlatform(rawValue: 2)
    public static let tvOS = MachOPlatform(rawValue: 3)
    public static let watchOS = MachOPlatform(rawValue: 4)
    public static let bridgeOS = MachOPlatform(rawValue: 5)
    public static let macCatalyst = MachOPlatform(rawValue: 6)
    public static let iOSSimulator = MachOPlatform(rawValue: 7)
    public static let tvOSSimulator = MachOPlatform(rawValue: 8)
    public static let watchOSSimulator = MachOPlatform(rawValue: 9)
    public static let driverKit = MachOPlatform(rawValue: 10)
    public static let visionOS = MachOPlatform(rawValue: 11)
    public static let visionOSSimulator = MachOPlatform(rawValue: 12)

    private static let names: [UInt32: String] = [
        1: "macOS", 2: "iOS", 3: "tvOS", 4: "watchOS", 5: "bridgeOS", 6: "Mac Catalyst", 7: "iOS Simulator",
        8: "tvOS Simulator", 9: "watchOS Simulator", 10: "DriverKit", 11: "visionOS", 12: "visionOS Simulator",
    ]

    /// `iOS`, `macOS`, `iOS Simulator`, …; `platform N` for a number this reader does not know.
    public var name: String { Self.names[rawValue] ?? "platform \(rawValue)" }

    /// A simulator build runs on a Mac, never on a device: it needs no profile.
    public var isSimulator: Bool { [7, 8, 9, 12].contains(rawValue) }
}
