/// A bundle whose signature is checked against its profile: the app, and every nested bundle
/// (extension, watch app, …) that embeds a profile. Holds what ``SigningCheck`` needs, so the
/// checks can be run again later, at another date, without reading the build.
public struct SigningSubject: Sendable, Equatable {
    /// What the bundle's main executable turned out to be.
    public enum Binary: Sendable, Equatable {
        /// No file where `CFBundleExecutable` says.
        case missing
        /// The file, or the signature it points at, could not be read.
        case unreadable(DecodeError)
        /// These slices (by architecture) have no `LC_CODE_SIGNATURE`.
        case unsigned([String])
        /// Every slice is signed; the first slice's signature.
        case signed(CodeSignature)
    }

    /// The main executable's path inside the build (``BuildExecutable/path``); problems name it.
    public var executable: String
    public var role: BuildExecutable.Role
    /// The Info.plist's `CFBundleIdentifier`.
    public var bundleID: String?
    /// A macOS bundle (`Contents/` layout).
    public var isMacOS: Bool
    /// Built for a simulator (Info.plist platform or Mach-O platform): it never runs on a device.
    public var isSimulator: Bool
    public var binary: Binary
    /// Whether the bundle carries `embedded.mobileprovision` (`Contents/embedded.provisionprofile`).
    public var hasEmbeddedProfile: Bool
    /// That profile, decoded; nil when absent, broken, or not decoded (an ingest skips content it
    /// has already decoded in the run) — then the checks that need it are not made.
    public var profile: ProvisioningProfile?

    public init(executable: String, role: BuildExecutable.Role, bundleID: String?, isMacOS: Bool, isSimulator: Bool,
                binary: Binary, hasEmbeddedProfile: Bool, profile: ProvisioningProfile?) {
        self.executable = executable
        self.role = role
        self.bundleID = bundleID
        self.isMacOS = isMacOS
        self.isSimulator = isSimulator
        self.binary = binary
        self.hasEmbeddedProfile = hasEmbeddedProfile
        self.profile = profile
    }
}
