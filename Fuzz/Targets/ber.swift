// libFuzzer target: the CMS SignedData / BER envelope reader.
// Compiled into the CatalogCore module by Fuzz/run.sh, so package symbols are visible.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let envelope = try CMSSignedData(bytes: bytes)
        // Touch what the decoder uses next, so lazily wrong slices would show up here.
        _ = envelope.content.count
        for certificate in envelope.certificates { _ = certificate.count }
    } catch is DecodeError {
    } catch {
        fatalError("CMSSignedData threw a non-DecodeError: \(error)")
    }
    return 0
}
