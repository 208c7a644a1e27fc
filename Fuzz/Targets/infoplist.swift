// libFuzzer target: the XML/binary plist parser and the Info.plist model on top of it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // The raw parser first: AppInfoDecoder sniffs for a plist header, the parser itself does not.
    do {
        let (value, _) = try PropertyListReader.parse(bytes)
        _ = value.typeName
    } catch is DecodeError {
    } catch {
        fatalError("PropertyListReader threw a non-DecodeError: \(error)")
    }
    do {
        let info = try AppInfoDecoder.decode(bytes, path: "Info.plist")
        _ = info.jsonFields.count
        _ = DecodedFile.infoPlist(info).json(path: "Info.plist").serialized()
    } catch is DecodeError {
    } catch {
        fatalError("AppInfoDecoder threw a non-DecodeError: \(error)")
    }
    return 0
}
