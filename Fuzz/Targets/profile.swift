// libFuzzer target: provisioning profile decoding (CMS envelope or bare plist → model).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let profile = try ProfileDecoder.decode(bytes, path: "fuzz.mobileprovision")
        _ = profile.json.serialized()
    } catch is DecodeError {
    } catch {
        fatalError("ProfileDecoder threw a non-DecodeError: \(error)")
    }
    return 0
}
