import CatalogCore

/// Where a profile was found (`profile_locations.container_kind`): a file of its own, or embedded
/// in a build.
package enum ContainerKind: String, Sendable {
    case standalone
    case app
    case ipa
    case xcarchive
    /// A zip holding one `.app` (migration 0023).
    case zip

    /// The container a build of `kind` embeds its profile in; nil for a stray Info.plist, which
    /// embeds none.
    package init?(_ kind: BuildArtifact.SourceKind) {
        switch kind {
        case .app: self = .app
        case .ipa: self = .ipa
        case .xcarchive: self = .xcarchive
        case .zip: self = .zip
        case .plist: return nil
        }
    }
}
