import Foundation

/// What one path turned out to be, decoded.
public enum DecodedFile: Sendable {
    case profile(ProvisioningProfile)
    case infoPlist(AppInfo)
    case build(BuildArtifact)
}
