import Foundation

/// Turns the bytes of a `.mobileprovision` / `.provisionprofile` into a `ProvisioningProfile`:
/// parses the CMS SignedData envelope (DER or BER), reads the plist it carries and types every key.
/// A bare XML or binary plist (no envelope) is accepted too.
package enum ProfileDecoder {
    /// Far above any real profile's size; anything past this is not a profile.
    package static let maximumSize = 16 << 20

    /// The keys this decoder types; every other key is kept in `unknownKeys`.
    static let knownKeys: Set<String> = [
        "AppIDName", "ApplicationIdentifierPrefix", "CreationDate", "ExpirationDate",
        "DeveloperCertificates", "DER-Encoded-Profile", "Entitlements", "IsXcodeManaged", "Name",
        "Platform", "PPQCheck", "ProvisionedDevices", "ProvisionsAllDevices", "TeamIdentifier",
        "TeamName", "TimeToLive", "UUID", "Version",
    ]

    /// What `decode` verifies against by default: Apple's pinned roots, or nothing when the
    /// environment says `CATALOG_VERIFY_SIGNATURES=0` (an escape hatch, and how the benchmark
    /// measures what verification costs; such profiles are stored with signature NULL, `unchecked`).
    package static let defaultTrust: TrustAnchors? =
        ProcessInfo.processInfo.environment["CATALOG_VERIFY_SIGNATURES"] == "0" ? nil : .apple

    /// `sha256` is the bytes' hash when the caller already computed it. `trust` decides what the
    /// envelope's signature must chain to (Apple's pinned roots unless a test injects its own);
    /// nil skips signature verification (`signature` stays nil).
    package static func decode(_ bytes: [UInt8], path: String? = nil, sha256: String? = nil,
                               trust: TrustAnchors? = defaultTrust) throws -> ProvisioningProfile {
        do {
            guard !bytes.isEmpty else { throw DecodeError(.empty, "file is empty") }
            guard bytes.count <= maximumSize else {
                throw DecodeError(.tooLarge, "\(bytes.count) bytes is too large for a profile")
            }
            let plistBytes: [UInt8]
            let envelopeCertificates: Int
            var trailingBytes = 0
            var signed: (envelope: CMSSignedData, signers: Result<[CMSSignerInfo], any Error>?)?
            if bytes[0] == 0x30 {
                let parsed = try CMSSignedData.parse(bytes, signers: trust != nil)
                signed = parsed
                let envelope = parsed.envelope
                plistBytes = envelope.content
                envelopeCertificates = envelope.certificates.count
                trailingBytes = envelope.trailingBytes
            } else if PlistSniffer.looksLikePlist(bytes) {
                plistBytes = bytes
                envelopeCertificates = 0
            } else {
                throw DecodeError(.unrecognized, "not a provisioning profile (neither a CMS envelope nor a plist)")
            }
            let dict = try PropertyListReader.parseDictionary(plistBytes, "profile plist").dictionary
            var profile = try profile(from: dict, rawPlist: plistBytes, envelopeCertificates: envelopeCertificates)
            profile.sha256 = sha256 ?? Digest.sha256Hex(bytes)
            if let trust {
                // CreationDate stands in for a missing signing time: the signature covers it.
                if let signed, let signers = signed.signers {
                    profile.signature = ProfileSignatureVerifier.verify(signed.envelope, signers: signers, trust: trust,
                                                                        fallbackTime: profile.creationDate)
                } else {
                    profile.signature = bareSignature
                }
            }
            profile.envelopeTrailingBytes = trailingBytes
            return profile
        } catch let error as DecodeError {
            throw path.map { error.at(path: $0) } ?? error
        }
    }

    /// The verdict for a profile that is a plist alone, without a CMS envelope.
    package static let bareSignature = ProfileSignature(.unsigned, "no CMS envelope: the file is a bare plist")

    static func profile(from dict: PlistDictionary, rawPlist: [UInt8],
                        envelopeCertificates: Int) throws -> ProvisioningProfile {
        let uuid = try dict.requiredString("UUID").uppercased()
        // An entry that is not a certificate loses that entry, not the profile (other parsers skip
        // such entries too): it is listed as undecodable instead.
        var certificates: [DeveloperCertificate] = []
        var certificateDERs: [[UInt8]] = []
        var undecodable: [UndecodableCertificate] = []
        for (index, der) in (try dict.dataArray("DeveloperCertificates") ?? []).enumerated() {
            do {
                certificates.append(try DeveloperCertificateCache.shared.certificate(der))
                certificateDERs.append(der)
            } catch let error as DecodeError {
                let reason = der.isEmpty ? "empty data" : error.message
                undecodable.append(UndecodableCertificate(index: index, bytes: der, reason: reason))
            }
        }
        let derCheck = DERProfileCheck.compare(plist: dict)
        var unknown = PlistDictionary()
        for (key, value) in dict where !knownKeys.contains(key) { unknown[key] = value }
        var profile = ProvisioningProfile(
            uuid: uuid,
            name: try dict.requiredString("Name"),
            appIDName: try dict.string("AppIDName"),
            applicationIdentifierPrefixes: try dict.strings("ApplicationIdentifierPrefix") ?? [],
            teamIdentifiers: try dict.strings("TeamIdentifier") ?? [],
            teamName: try dict.string("TeamName"),
            platforms: try dict.strings("Platform") ?? [],
            creationDate: try dict.requiredDate("CreationDate"),
            expirationDate: try dict.requiredDate("ExpirationDate"),
            devices: try dict.strings("ProvisionedDevices") ?? [],
            provisionsAllDevices: try dict.bool("ProvisionsAllDevices") ?? false,
            xcodeManaged: try dict.bool("IsXcodeManaged"),
            ppqCheck: try dict.bool("PPQCheck"),
            timeToLive: try dict.integer("TimeToLive"),
            version: try dict.integer("Version"),
            entitlements: try dict.dictionary("Entitlements") ?? PlistDictionary(),
            certificates: certificates,
            derEncodedProfile: try dict.data("DER-Encoded-Profile"),
            unknownKeys: unknown,
            rawPlist: rawPlist,
            envelopeCertificateCount: envelopeCertificates)
        profile.derProfile = derCheck
        profile.undecodableCertificates = undecodable
        profile.certificateDERs = certificateDERs
        return profile
    }
}
