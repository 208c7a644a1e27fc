// libFuzzer target: a code signature's parts read one by one with the CMS verified, on the raw
// input as a SuperBlob (trusting Apple's roots, so mutations reach the per-part findings and the
// CMS-over-CodeDirectory check); and the raw input as the CMS blob of a fixed CodeDirectory, so
// mutations of signed attributes (messageDigest, Apple's CDHashes) reach the verifier directly.
import Foundation

/// A small valid CodeDirectory (version 0x20400, SHA-256, one code slot): the content a fuzzed CMS
/// blob claims to sign.
private let directory: (directory: CodeDirectory, blob: ArraySlice<UInt8>) = {
    func u32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
    let identifier = Array("com.example.fuzz".utf8) + [0]
    let hashOffset = UInt32(88 + identifier.count)
    var blob = u32(0xFADE_0C02) + u32(hashOffset + 32) + u32(0x20400) + u32(0) + u32(hashOffset) + u32(88)
    blob += u32(0) + u32(1) + u32(4096) + [32, 2, 0, 12] + u32(0) + u32(0) + u32(0) + u32(0)
    blob += [UInt8](repeating: 0, count: 88 - blob.count) + identifier + [UInt8](repeating: 0xAB, count: 32)
    let slice = blob[...]
    guard let decoded = try? CodeDirectory(blob: slice, slot: 0) else { fatalError("the fixed CodeDirectory does not decode") }
    return (decoded, slice)
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let decoded = try CodeSignature.decode(superBlob: bytes, trust: .apple)
        if decoded.signature.codeDirectories.count != decoded.directoryBlobs.count { fatalError("a CodeDirectory without its blob") }
        for finding in decoded.signature.findings where finding.message.isEmpty { fatalError("a finding without a message") }
    } catch is DecodeError {
    } catch {
        fatalError("CodeSignature.decode threw a non-DecodeError: \(error)")
    }
    for finding in CodeSignatureVerifier.findings(cms: bytes, directories: [directory], trust: .apple) {
        if ![.signatureUnreadable, .signatureInvalid, .certificateNotApple].contains(finding.code) {
            fatalError("the CMS verifier found \(finding.code)")
        }
    }
    return 0
}
