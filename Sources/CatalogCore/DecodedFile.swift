import Foundation

/// What one path turned out to be, decoded.
public enum DecodedFile: Sendable, Equatable {
    case profile(ProvisioningProfile)
    case infoPlist(AppInfo)
    case build(BuildArtifact)
}

extension DecodedFile {
    /// What decoding accepted although not quite right (see `ProvisioningProfile.warnings`), for the
    /// profile itself or a build's embedded profile.
    public var warnings: [String] {
        switch self {
        case .profile(let profile): return profile.warnings
        case .build(let artifact): return artifact.profile?.warnings ?? []
        case .infoPlist: return []
        }
    }
}
