// libFuzzer target: the whole bytes-to-model path (sniffing, CMS, plist, profile or Info.plist).
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let decoded = try FileDecoder.decode(bytes: bytes, path: "fuzz-input")
        // Render it as `catalog decode --json` would: the model must be printable, not just built.
        let text = decoded.json(path: "fuzz-input").serialized(pretty: true)
        // The catalogue stores JSON this package wrote and reads it back with Foundation's parser.
        do {
            _ = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        } catch {
            fatalError("JSON output does not parse back (\(error)): \(text.prefix(2000))")
        }
    } catch is DecodeError {
    } catch {
        fatalError("FileDecoder threw a non-DecodeError: \(error)")
    }
    return 0
}
