// libFuzzer target: signature verification (CMS SignerInfo, signed attributes, chain building) and
// the DER-Encoded-Profile payload decoder. Checked against the signature fixtures' own test root,
// so mutated inputs reach the chain search past a valid signature, and against Apple's roots.
import Foundation

let testTrust: TrustAnchors? = {
    guard let pem = try? String(contentsOfFile: "Fixtures/signatures/root.pem", encoding: .utf8) else { return nil }
    return try? TrustAnchors(pem: pem, signerCommonNames: ["Catalog Test Profile Signing"])
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for trust in [testTrust, TrustAnchors.apple].compactMap({ $0 }) {
        let result = ProfileSignatureVerifier.verify(envelope: bytes, trust: trust,
                                                     fallbackTime: Date(timeIntervalSince1970: 1_768_471_200))
        // Every verdict says why; a garbage envelope is never anything but error/unsigned/untrusted/invalid.
        if result.reason.isEmpty { fatalError("empty reason for \(result.status)") }
    }
    do {
        _ = try DERProfilePayload.decode(bytes)
    } catch is DecodeError {
    } catch {
        fatalError("DERProfilePayload threw a non-DecodeError: \(error)")
    }
    return 0
}
