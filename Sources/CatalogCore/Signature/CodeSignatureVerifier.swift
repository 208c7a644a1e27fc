import Foundation

/// Verifies a code signature's CMS blob over its CodeDirectories with the verifier profiles use
/// (``ProfileSignatureVerifier``): the messageDigest of the primary CodeDirectory, the signature
/// over the signed attributes with the leaf's key, the chain through the blob's intermediates to a
/// pinned root, and Apple's CDHashes attributes against every CodeDirectory.
///
/// The chain is judged at the signing time, else at the latest `notBefore` among the blob's
/// certificates: an expired leaf is `certificate-expired`'s business, not the chain's.
enum CodeSignatureVerifier {
    static func findings(cms bytes: [UInt8], directories: [(directory: CodeDirectory, blob: ArraySlice<UInt8>)],
                         trust: TrustAnchors) -> [SignatureFinding] {
        guard let primary = directories.first else { return [] }
        let cms: CMSDetachedSignedData
        do {
            cms = try CMSDetachedSignedData(bytes: bytes)
        } catch {
            return [SignatureFinding(.signatureUnreadable, "CMS signature: \((error as? DecodeError)?.reason ?? "\(error)")")]
        }
        guard let signer = cms.signers.first else { return [] }
        let notBefore = cms.certificates.compactMap { ChainCache.shared.certificate($0)?.notBefore }.max()
        let verdict = ProfileSignatureVerifier.verify(SignedEnvelope(detached: cms, content: Array(primary.blob)),
                                                      trust: trust.forCodeSigning, fallbackTime: signer.signingTime ?? notBefore)
        var findings: [SignatureFinding] = []
        switch verdict.status {
        case .verified, .unsigned: break
        case .invalid: findings.append(SignatureFinding(.signatureInvalid, "the CMS signature over the CodeDirectory: \(verdict.reason)"))
        case .untrusted: findings.append(SignatureFinding(.certificateNotApple, "the signing certificate: \(verdict.reason)"))
        case .error: findings.append(SignatureFinding(.signatureUnreadable, "CMS signature: \(verdict.reason)"))
        }
        findings += cdHashFindings(signer, directories)
        return findings
    }

    /// Apple's CDHashes attributes must name every CodeDirectory the signature carries, as it is.
    private static func cdHashFindings(_ signer: CMSSignerInfo,
                                       _ directories: [(directory: CodeDirectory, blob: ArraySlice<UInt8>)]) -> [SignatureFinding] {
        var findings: [SignatureFinding] = []
        func invalid(_ reason: String) { findings.append(SignatureFinding(.signatureInvalid, "the signed CDHashes attribute: \(reason)")) }
        let full = directories.map { entry in entry.directory.hashType.algorithm?.digest(Array(entry.blob)) }
        if let plist = signer.cdHashesPlist {
            let listed: [[UInt8]]
            if let dictionary = try? PropertyListReader.parseDictionary(plist, "CDHashes").dictionary,
               case .array(let items)? = dictionary["cdhashes"] {
                listed = items.compactMap { if case .data(let bytes) = $0 { bytes } else { nil } }
            } else {
                listed = []
                invalid("its plist cannot be read")
            }
            let actual = full.compactMap { $0.map { Array($0.prefix(20)) } }
            if !listed.isEmpty && Set(listed) != Set(actual) {
                invalid("it lists \(listed.map { Digest.hex($0) }.joined(separator: ", ")); the CodeDirectories' cdhashes are "
                        + actual.map { Digest.hex($0) }.joined(separator: ", "))
            }
        }
        for pair in signer.cdHashes ?? [] {
            guard let algorithm = HashAlgorithm(digestOID: pair.algorithm) else { continue }
            let matching = directories.indices.filter { directories[$0].directory.hashType.algorithm == algorithm }
            let type = algorithm.rawValue
            guard !matching.isEmpty else {
                invalid("it names a \(type) CodeDirectory the signature does not carry")
                continue
            }
            if !matching.contains(where: { full[$0].map { pair.digest.elementsEqual($0.prefix(pair.digest.count)) && !pair.digest.isEmpty } ?? false }) {
                invalid("its \(type) digest \(Digest.hex(pair.digest)) is not the \(type) CodeDirectory's")
            }
        }
        return findings
    }
}
