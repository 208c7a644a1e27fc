import Foundation

/// Verifies the CMS signature of a profile envelope and the chain of its signer to a pinned root.
///
/// Design: the envelope is parsed with our own BER reader (the parser the decoder already trusts
/// and fuzzes); only the public-key operations go to the platform library (`PublicKeyVerifier`).
/// The checks, in order, each deciding the status when it fails:
/// 1. the envelope parses (`error`), has a signer (`unsigned`) whose certificate it carries
///    (`untrusted`);
/// 2. with signed attributes: contentType equals eContentType and messageDigest equals the digest
///    of the content (`invalid`); the signature covers their DER `SET OF` encoding. Without them
///    the signature covers the content itself;
/// 3. the signature verifies with the signer certificate's key (`invalid`; an unsupported
///    algorithm is `error`);
/// 4. signer → certificates in the envelope → a pinned root: each issuer found by name, its key
///    verifying the certificate's signature, every issuer a CA (basicConstraints cA) unless pinned,
///    every certificate valid at the signing time (`untrusted`);
/// 5. the signer has a profile-signing name (`untrusted`).
///
/// The signing time is the signingTime attribute; without one, `fallbackTime` (the profile's
/// CreationDate, which the signature covers); without that, now. No revocation check: that needs
/// the network (OCSP/CRL), which this tool never uses.
package enum ProfileSignatureVerifier {
    /// Longest chain followed (signer, intermediates, root); real chains have three certificates.
    static let maximumChainLength = 8

    package static func verify(envelope bytes: [UInt8], trust: TrustAnchors,
                               fallbackTime: Date? = nil) -> ProfileSignature {
        do {
            return verify(try SignedEnvelope(bytes: bytes), trust: trust, fallbackTime: fallbackTime)
        } catch {
            return unreadable(error)
        }
    }

    /// ``verify(envelope:trust:fallbackTime:)`` for an envelope the decoder has read, with its
    /// signers as ``CMSSignedData/parse(_:signers:)`` read them: the same verdict, one parse.
    static func verify(_ envelope: CMSSignedData, signers: Result<[CMSSignerInfo], any Error>, trust: TrustAnchors,
                       fallbackTime: Date? = nil) -> ProfileSignature {
        switch signers {
        case .success(let signers): return verify(SignedEnvelope(envelope, signers: signers), trust: trust, fallbackTime: fallbackTime)
        case .failure(let error): return unreadable(error)
        }
    }

    private static func unreadable(_ error: any Error) -> ProfileSignature {
        ProfileSignature(.error, "envelope: \((error as? DecodeError)?.message ?? "\(error)")")
    }

    static func verify(_ envelope: SignedEnvelope, trust: TrustAnchors, fallbackTime: Date?) -> ProfileSignature {
        guard !envelope.signers.isEmpty else {
            return ProfileSignature(.unsigned, "the envelope has no signer (empty SignerInfos)")
        }
        var pool: [ChainCertificate] = []
        var unreadable = 0
        for der in envelope.certificates {
            // A certificate that does not parse cannot be part of a chain; the others still can.
            // Duplicates (some macOS versions write them) are kept once.
            if let certificate = ChainCache.shared.certificate(der) {
                if !pool.contains(where: { $0.sha256 == certificate.sha256 }) { pool.append(certificate) }
            } else {
                unreadable += 1
            }
        }
        var results: [ProfileSignature] = []
        for signer in envelope.signers {
            var result = verify(signer, envelope, pool, trust, fallbackTime)
            if unreadable > 0, result.status != .verified {
                result.reason += " (\(unreadable) envelope certificate\(unreadable == 1 ? "" : "s") could not be read)"
            }
            if result.status != .verified { return envelope.signers.count > 1 ? prefixed(result, results.count) : result }
            results.append(result)
        }
        if envelope.trailingBytes > 0 {
            // As openssl does; they are outside what was signed, so they change nothing verified.
            results[0].reason += " (\(envelope.trailingBytes) unsigned trailing bytes after the envelope ignored)"
        }
        return results[0]
    }

    private static func prefixed(_ result: ProfileSignature, _ index: Int) -> ProfileSignature {
        ProfileSignature(result.status, "signer \(index + 1): \(result.reason)")
    }

    private static func verify(_ signer: CMSSignerInfo, _ envelope: SignedEnvelope, _ pool: [ChainCertificate],
                               _ trust: TrustAnchors, _ fallbackTime: Date?) -> ProfileSignature {
        guard let certificate = pool.first(where: { matches(signer.identifier, $0) }) else {
            return ProfileSignature(.untrusted, "the signer's certificate is not in the envelope")
        }
        guard let digest = HashAlgorithm(digestOID: signer.digestAlgorithmOID) else {
            return ProfileSignature(.error, "unsupported digest algorithm \(signer.digestAlgorithmOID)")
        }
        let signedBytes: [UInt8]
        if let attributes = signer.signedAttributesDER {
            guard let contentType = signer.contentType else {
                return ProfileSignature(.invalid, "the signed attributes lack a content type")
            }
            guard contentType == envelope.contentType else {
                return ProfileSignature(.invalid, "signed content type \(contentType) is not the content's \(envelope.contentType)")
            }
            guard let expected = signer.messageDigest else {
                return ProfileSignature(.invalid, "the signed attributes lack a message digest")
            }
            guard expected == digest.digest(envelope.content) else {
                return ProfileSignature(.invalid, "message digest mismatch: the content is not what was signed "
                                        + "(\(digest.rawValue) \(Digest.hex(digest.digest(envelope.content)).prefix(16))…, "
                                        + "signed \(Digest.hex(expected).prefix(16))…)")
            }
            signedBytes = attributes
        } else {
            signedBytes = envelope.content
        }
        guard let algorithm = SignatureAlgorithm(oid: signer.signatureAlgorithmOID, digest: digest) else {
            return ProfileSignature(.error, "unsupported signature algorithm \(signer.signatureAlgorithmOID)")
        }
        switch PublicKeyVerifier.verify(signer.signature, over: signedBytes, key: certificate.publicKey, algorithm: algorithm) {
        case .valid: break
        case .invalid:
            return ProfileSignature(.invalid, "the \(algorithm.description) signature does not match "
                                    + (signer.signedAttributesDER == nil ? "the content" : "the signed attributes")
                                    + " (signer \(certificate.label))")
        case .unusable(let why):
            return ProfileSignature(.error, "signer \(certificate.label): \(why)")
        }

        let time = signer.signingTime ?? fallbackTime ?? Date()
        let timeSource = signer.signingTime != nil ? "signed at" : fallbackTime != nil ? "created (no signing time)" : "checked (no signing time)"
        var search = ChainSearch(pool: pool, trust: trust, time: time)
        guard let root = search.extend(certificate, path: [certificate]) else {
            let failure = search.deepestFailure ?? ChainSearch.Failure(depth: 0, status: .untrusted, reason: "no chain")
            return ProfileSignature(failure.status, failure.reason)
        }
        if let names = trust.signerCommonNames, !names.contains(certificate.subjectCommonName ?? "") {
            return ProfileSignature(.untrusted, "signer \(certificate.label) chains to \(root.label) but is not a "
                                    + "provisioning-profile signing certificate")
        }
        return ProfileSignature(.verified, "signed by \(certificate.label), \(timeSource) \(ISO8601.format(time)); "
                                + "chain to pinned root \(root.label)")
    }

    private static func matches(_ identifier: CMSSignerInfo.Identifier, _ certificate: ChainCertificate) -> Bool {
        switch identifier {
        case .issuerAndSerial(let issuer, let serial): return certificate.issuer == issuer && certificate.serial == serial
        case .subjectKeyIdentifier(let key): return certificate.subjectKeyIdentifier == key
        }
    }
}

/// Depth-first search from a certificate up to a pinned root, trying every candidate issuer (a
/// look-alike root with the pinned root's name is one candidate among others) and remembering the
/// failure that got furthest, which is the one worth reporting.
struct ChainSearch {
    struct Failure {
        var depth: Int
        var status: ProfileSignature.Status
        var reason: String
    }

    let pool: [ChainCertificate]
    let trust: TrustAnchors
    let time: Date
    private(set) var deepestFailure: Failure?

    init(pool: [ChainCertificate], trust: TrustAnchors, time: Date) {
        self.pool = pool
        self.trust = trust
        self.time = time
    }

    private mutating func fail(_ depth: Int, _ status: ProfileSignature.Status, _ reason: String) {
        if deepestFailure == nil || depth >= deepestFailure!.depth {
            deepestFailure = Failure(depth: depth, status: status, reason: reason)
        }
    }

    private func validity(_ certificate: ChainCertificate) -> String? {
        guard certificate.notBefore <= time, time <= certificate.notAfter else {
            return "\(certificate.label) was not valid at \(ISO8601.format(time)) "
                + "(\(ISO8601.format(certificate.notBefore)) to \(ISO8601.format(certificate.notAfter)))"
        }
        return nil
    }

    /// The pinned root `certificate` chains to, or nil (see `deepestFailure`).
    mutating func extend(_ certificate: ChainCertificate, path: [ChainCertificate]) -> ChainCertificate? {
        let depth = path.count
        if let problem = validity(certificate) {
            fail(depth, .untrusted, problem)
            return nil
        }
        if let root = trust.root(withSHA256: certificate.sha256) { return root }
        guard depth < ProfileSignatureVerifier.maximumChainLength else {
            fail(depth, .untrusted, "chain longer than \(ProfileSignatureVerifier.maximumChainLength) certificates")
            return nil
        }
        if certificate.isSelfIssued {
            fail(depth, .untrusted, "chain ends at self-signed \(certificate.label) "
                 + "(SHA-256 \(Digest.hex(certificate.sha256))), which is not a pinned root")
            return nil
        }
        let candidates = trust.roots.filter { $0.subject == certificate.issuer }
            + pool.filter { candidate in
                candidate.subject == certificate.issuer && !path.contains { $0.sha256 == candidate.sha256 }
            }
        guard !candidates.isEmpty else {
            fail(depth, .untrusted, "the issuer of \(certificate.label) ('\(certificate.issuerCommonName ?? "?")') "
                 + "is neither in the envelope nor a pinned root")
            return nil
        }
        guard let algorithm = SignatureAlgorithm(oid: certificate.signatureAlgorithmOID) else {
            fail(depth, .error, "\(certificate.label) is signed with unsupported algorithm \(certificate.signatureAlgorithmOID)")
            return nil
        }
        for issuer in candidates {
            let pinned = trust.root(withSHA256: issuer.sha256) != nil
            switch ChainCache.shared.link(certificate, signedBy: issuer, algorithm) {
            case .invalid:
                fail(depth, .untrusted, "the signature on \(certificate.label) does not verify with the key of "
                     + "\(pinned ? "pinned root " : "")\(issuer.label)")
                continue
            case .unusable(let why):
                fail(depth, .error, "checking \(certificate.label) with \(issuer.label): \(why)")
                continue
            case .valid:
                break
            }
            if !pinned && !issuer.isCA {
                fail(depth + 1, .untrusted, "\(issuer.label) issued \(certificate.label) but is not a CA")
                continue
            }
            if let root = extend(issuer, path: path + [issuer]) { return root }
        }
        return nil
    }
}
