import CatalogCore
import Foundation

extension CatalogWriter {
    /// Records a profile `catalog install` has just written to `path`: the profile (as an ingest
    /// would) and a standalone location of this host, seen now. No ingest run is recorded, so an
    /// install never passes for the nightly ingest `--max-age` watches.
    package func recordInstalledProfile(_ profile: ProvisioningProfile, path: String, size: Int64, mtime: Date?,
                                        at now: Date) throws {
        _ = try upsertProfile(profile, at: now)
        try recordLocation(path: path, profileUUID: profile.uuid, containerKind: .standalone, containerPath: nil,
                           size: size, mtime: mtime, sha256: profile.sha256, at: now)
    }
}
