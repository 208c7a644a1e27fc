// libFuzzer target: X.509 certificate parsing, both the generic reader and the developer view.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        _ = try X509Certificate(der: bytes)
    } catch is DecodeError {
    } catch {
        fatalError("X509Certificate threw a non-DecodeError: \(error)")
    }
    do {
        let certificate = try DeveloperCertificate(der: bytes)
        _ = certificate.json.serialized()
    } catch is DecodeError {
    } catch {
        fatalError("DeveloperCertificate threw a non-DecodeError: \(error)")
    }
    return 0
}
