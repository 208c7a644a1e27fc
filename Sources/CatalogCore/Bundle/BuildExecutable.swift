/// One Mach-O file of a build: the app's executable, an extension's, a framework's, ….
public struct BuildExecutable: Sendable, Equatable {
    /// What the binary is to the app, from where it sits in the bundle.
    public enum Role: String, Sendable, CaseIterable, Codable {
        /// The app's `CFBundleExecutable`.
        case main
        /// `PlugIns/*.appex`, `Extensions/*.appex`.
        case appExtension = "app-extension"
        /// `Frameworks/*.framework`, or a `Frameworks/*.dylib`.
        case framework
        /// `Watch/*.app`.
        case watchApp = "watch-app"
        /// `AppClips/*.app`.
        case appClip = "app-clip"
        /// macOS `Library/SystemExtensions/*.systemextension`.
        case systemExtension = "system-extension"
        /// macOS `Library/LoginItems/*.app`.
        case loginItem = "login-item"
        /// `XPCServices/*.xpc`.
        case xpcService = "xpc-service"
    }

    public var role: Role
    /// Inside the build: relative to the `.app`, or from the top of the `.ipa` or `.xcarchive`
    /// (`Payload/X.app/X`, `Products/Applications/X.app/PlugIns/W.appex/W`).
    public var path: String
    /// `CFBundleIdentifier` of the bundle the binary belongs to; nil for a loose dylib.
    public var bundleID: String?
    /// The binary, decoded; nil when it could not be (see ``error``).
    public var binary: MachOFile?
    /// Why the file is not a readable Mach-O binary.
    public var error: DecodeError?

    public init(role: Role, path: String, bundleID: String?, binary: MachOFile?, error: DecodeError? = nil) {
        self.role = role
        self.path = path
        self.bundleID = bundleID
        self.binary = binary
        self.error = error
    }

    /// The signature of the first signed slice (each slice is signed on its own; their identifier,
    /// team and entitlements agree, their cdhashes do not). Nil when no slice has a readable one.
    public var codeSignature: CodeSignature? { binary?.slices.lazy.compactMap(\.codeSignature).first }
}
