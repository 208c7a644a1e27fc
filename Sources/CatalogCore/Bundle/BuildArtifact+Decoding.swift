import Foundation

extension BuildArtifact {
    /// Decodes the app build at `url` (a `file:` URL), told apart by layout and content rather than
    /// by extension: an `.xcarchive` folder, an `.app` folder (iOS flat or macOS `Contents/`
    /// layout), an `.ipa` (a zip with `Payload/*.app`), or a zip whose top level holds one `.app`
    /// (source kind `zip`). Only the Info.plist(s), the embedded profile and the binaries' headers
    /// and signatures are read.
    ///
    /// ```swift
    /// let build = try BuildArtifact(contentsOf: URL(fileURLWithPath: "Example.ipa"))
    /// print(build.sourceKind, build.info.formattedVersion, build.profile?.uuid ?? "no profile")
    /// ```
    ///
    /// A broken embedded profile does not fail the build: it is reported in ``profileError``.
    ///
    /// - Parameter trust: what the embedded profile's signature must chain to (see
    ///   ``ProvisioningProfile/init(bytes:trust:)``); nil skips verification.
    /// - Throws: ``DecodeError`` (`.invalidBundle` when the path is none of these,
    ///   `.malformedZip`, `.unreadable`, or the Info.plist's error).
    public init(contentsOf url: URL, trust: TrustAnchors? = .apple) throws {
        self = try FileDecoder.build(path: try FileBytes.path(of: url), trust: trust)
    }

    /// Decodes an `.ipa` held in memory (downloaded, say, and never saved), or a zip whose top
    /// level holds one `.app` (source kind `zip`). Folders — `.app`, `.xcarchive` — exist only on
    /// disk: use ``init(contentsOf:trust:)`` for those.
    ///
    /// ```swift
    /// let (data, _) = try await URLSession.shared.data(from: buildServerURL)
    /// let build = try BuildArtifact(ipaBytes: data, path: "Example.ipa")
    /// ```
    ///
    /// - Parameters:
    ///   - path: what ``path`` holds and errors name (`Example.ipa!Payload/Example.app/Info.plist: …`);
    ///     nothing is read from it.
    ///   - trust: as for ``init(contentsOf:trust:)``.
    /// - Throws: ``DecodeError`` (`.malformedZip`, `.invalidBundle` without `Payload/*.app`, …).
    public init(ipaBytes: some Sequence<UInt8>, path: String, trust: TrustAnchors? = .apple) throws {
        self = try IPAReader.read(try ZipArchive(bytes: Array(ipaBytes), path: path), trust: trust)
    }
}
