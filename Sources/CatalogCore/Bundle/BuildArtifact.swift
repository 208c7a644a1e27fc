import Foundation

/// One app build found on disk: an `.app` bundle, an `.xcarchive`, an `.ipa`, a zip holding one
/// `.app` (a macOS app as Developer ID distribution ships it), or a stray Info.plist.
public struct BuildArtifact: Sendable, Equatable {
    public enum SourceKind: String, Sendable, CaseIterable, Codable {
        case app
        case ipa
        case xcarchive
        case plist
        /// A zip whose top level holds one `.app`, read in place as an `.ipa` is.
        case zip
    }

    public var sourceKind: SourceKind
    /// The container: the `.app`, `.xcarchive`, `.ipa` or `.zip` path, or the Info.plist path.
    public var path: String
    /// Inside the container, the app's path (`Products/Applications/X.app`, `Payload/X.app`,
    /// `X.app` in a zip, `Payload/X.app/Watch/W.app` for a bundle nested in an `.ipa`), if any.
    public var appPath: String?
    public var info: AppInfo
    /// The embedded profile, decoded; nil when the app carries none.
    public var profile: ProvisioningProfile?
    /// Why the embedded profile could not be decoded, when it was present but broken.
    public var profileError: DecodeError?
    /// SHA-256 of the embedded profile's bytes, whenever one was read (decoded or not).
    public var embeddedProfileSHA256: String?
    /// Where the embedded profile was read (a file, or `X.ipa!member`), whenever one was.
    package var embeddedProfilePath: String?
    /// `.xcarchive` only.
    public var archivedAt: Date?
    public var scheme: String?
    public var signingIdentity: String?
    public var teamID: String?
    /// Every Mach-O of the bundle — the app's executable, its extensions', watch app's, app clip's,
    /// frameworks' … — in bundle order, app first (not for a stray Info.plist).
    public var executables: [BuildExecutable] = []
    /// `.xcarchive` only: the binaries of its `dSYMs/`.
    public var dsyms: [DebugSymbols] = []
    /// The app and every nested bundle that embeds a profile, as ``signingProblems(asOf:)`` judges them.
    public var signingSubjects: [SigningSubject] = []
    /// What is wrong with the code and resources as signed, whatever the date: unreadable
    /// signatures or executables, modified pages, Info.plists, seals, resources and nested code, CMS
    /// signatures that do not verify or do not chain to the trusted roots. Every bundle's.
    public var integrityProblems: [SigningProblem] = []

    public init(sourceKind: SourceKind, path: String, appPath: String? = nil, info: AppInfo,
                profile: ProvisioningProfile? = nil, profileError: DecodeError? = nil,
                archivedAt: Date? = nil, scheme: String? = nil, signingIdentity: String? = nil,
                teamID: String? = nil) {
        self.sourceKind = sourceKind
        self.path = path
        self.appPath = appPath
        self.info = info
        self.profile = profile
        self.profileError = profileError
        self.archivedAt = archivedAt
        self.scheme = scheme
        self.signingIdentity = signingIdentity
        self.teamID = teamID
    }
}

/// Decides, from an embedded profile's SHA-256, whether to decode it. The ingester answers false for
/// content it has already decoded in the run; everyone else decodes everything.
package typealias EmbeddedProfilePolicy = @Sendable (_ sha256: String) -> Bool

extension BuildArtifact {
    package static let decodeEveryProfile: EmbeddedProfilePolicy = { _ in true }

    /// Reads the embedded profile at `path` (a file, or `archive.ipa!member`), records its hash and,
    /// when `policy` says so, decodes it, verifying its signature against `trust` (nil: not
    /// verified). A broken profile is kept as `profileError`: the build itself is still good.
    package mutating func attachEmbeddedProfile(at path: String, policy: EmbeddedProfilePolicy,
                                                trust: TrustAnchors? = ProfileDecoder.defaultTrust,
                                                read: () throws -> [UInt8]) {
        embeddedProfilePath = path
        do {
            let bytes = try read()
            let sha = Digest.sha256Hex(bytes)
            embeddedProfileSHA256 = sha
            guard policy(sha) else { return }
            profile = try ProfileDecoder.decode(bytes, path: path, sha256: sha, trust: trust)
        } catch let error as DecodeError {
            profileError = error.at(path: path)
        } catch {
            profileError = DecodeError(.unreadable, "\(error)", path: path)
        }
    }
}
