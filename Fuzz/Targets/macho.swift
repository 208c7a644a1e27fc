// libFuzzer target: the Mach-O reader (fat and thin headers, load commands) and the code signature
// it points at (SuperBlob, CodeDirectories, entitlements, the CMS blob), all the way to the JSON
// `decode` prints and the signing checks; and the SuperBlob decoder on the raw input, so mutations
// reach it without a valid Mach-O around them.
import Foundation

private let asOf = Date(timeIntervalSince1970: 1_788_220_800)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let file = try MachOFile(bytes: bytes, path: "fuzz")
        if file.slices.isEmpty { fatalError("a decoded file has no slices") }
        for slice in file.slices {
            if slice.offset + slice.size > UInt64(size) { fatalError("a slice lies outside the input") }
            if slice.codeSignature != nil && slice.codeSignatureError != nil { fatalError("a signature both read and not") }
        }
        let executable = BuildExecutable(role: .main, path: "fuzz", bundleID: "com.example.fuzz", binary: file)
        _ = executable.json.serialized(pretty: false)
        if let signature = executable.codeSignature {
            let subject = SigningSubject(executable: "fuzz", role: .main, bundleID: "com.example.fuzz", isMacOS: false,
                                         isSimulator: false, binary: .signed(signature), hasEmbeddedProfile: false,
                                         profile: nil)
            _ = SigningCheck.problems(subject, asOf: asOf)
        }
    } catch is DecodeError {
    } catch {
        fatalError("MachOFile threw a non-DecodeError: \(error)")
    }
    do {
        let signature = try CodeSignature(superBlob: bytes)
        if signature.codeDirectories.isEmpty { fatalError("a signature without a CodeDirectory") }
        if let cdhash = signature.cdhash, cdhash.count != 40 { fatalError("a cdhash of \(cdhash.count) digits") }
        _ = signature.json.serialized(pretty: false)
    } catch is DecodeError {
    } catch {
        fatalError("CodeSignature threw a non-DecodeError: \(error)")
    }
    return 0
}
