import Foundation

/// Decides what a path is — profile, Info.plist, `.app`, `.xcarchive`, `.ipa`, app zip — from its content and
/// layout (the extension only words the error), and decodes it. `trust` is what a profile's
/// signature must chain to (nil: signatures are not verified).
package enum FileDecoder {
    package static func decode(path: String, trust: TrustAnchors? = ProfileDecoder.defaultTrust) throws -> DecodedFile {
        if FileBytes.isDirectory(path) || isZip(path) { return .build(try build(path: path, trust: trust)) }
        let bytes = try FileBytes.read(path, limit: ProfileDecoder.maximumSize)
        return try decode(bytes: bytes, path: path, trust: trust)
    }

    /// An `.xcarchive` or `.app` folder, or an `.ipa` or a zip holding one `.app` (any zip), decoded.
    package static func build(path: String, trust: TrustAnchors? = ProfileDecoder.defaultTrust) throws -> BuildArtifact {
        if FileBytes.isDirectory(path) {
            if ArchiveReader.isArchive(path) { return try ArchiveReader.read(path, trust: trust) }
            if AppBundleReader.layout(of: path) != nil { return try AppBundleReader.read(path, trust: trust) }
            throw DecodeError(.invalidBundle, "folder is not an .app bundle or .xcarchive", path: path)
        }
        if isZip(path) { return try IPAReader.read(path, trust: trust) }
        // A path that is no regular file either (missing, a FIFO): say why it cannot be read.
        if !FileBytes.isFile(path) { _ = try FileBytes.prefix(path, count: 0) }
        throw DecodeError(.invalidBundle, "not an .app bundle, .xcarchive, .ipa or zip of an .app", path: path)
    }

    /// Decodes file bytes already read: a CMS envelope is a profile; a plist is a profile when it
    /// carries a profile's keys, else an Info.plist. `path`, when given, names the file in errors.
    package static func decode(bytes: [UInt8], path: String?,
                               trust: TrustAnchors? = ProfileDecoder.defaultTrust) throws -> DecodedFile {
        do {
            guard let first = bytes.first else { throw DecodeError(.empty, "file is empty") }
            if first == 0x30 { return .profile(try ProfileDecoder.decode(bytes, trust: trust)) }
            guard PlistSniffer.looksLikePlist(bytes) else {
                throw DecodeError(.unrecognized, "not a provisioning profile, property list or zip archive")
            }
            guard bytes.count <= AppInfoDecoder.maximumSize else {
                throw DecodeError(.tooLarge, "\(bytes.count) bytes is too large for a property list")
            }
            let (dict, format) = try PropertyListReader.parseDictionary(bytes, "plist")
            if dict["UUID"] != nil && (dict["ExpirationDate"] != nil || dict["DeveloperCertificates"] != nil) {
                var profile = try ProfileDecoder.profile(from: dict, rawPlist: bytes, envelopeCertificates: 0)
                profile.sha256 = Digest.sha256Hex(bytes)
                if trust != nil { profile.signature = ProfileDecoder.bareSignature }
                return .profile(profile)
            }
            return .infoPlist(AppInfoDecoder.appInfo(from: dict, format: format))
        } catch let error as DecodeError {
            throw path.map { error.at(path: $0) } ?? error
        }
    }

    /// A zip starts with a local file header (`PK\3\4`) or, when empty, the end record (`PK\5\6`).
    package static func isZip(_ path: String) -> Bool {
        // Through the regular-file reader: a FIFO must not block here either (FileBytes.read refuses it).
        guard let head = try? FileBytes.prefix(path, count: 4), head.count == 4 else { return false }
        return head.starts(with: [0x50, 0x4B]) && (head[2] == 3 || head[2] == 5)
    }
}
