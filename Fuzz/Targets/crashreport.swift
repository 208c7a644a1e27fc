// libFuzzer target: a crash report read from the raw input, told by content (.ips JSON header and
// body, a text .crash, or a JSON header before a text report).
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let report = try CrashReport(bytes: bytes, path: "fuzz")
        if report.images.filter(\.isMain).count > 1 { fatalError("two main images") }
        for thread in report.threads {
            for frame in thread.frames where frame.imageIndex.map({ !report.images.indices.contains($0) }) ?? false {
                fatalError("a frame names an image that is not there")
            }
        }
    } catch let error as DecodeError {
        if error.path != "fuzz" { fatalError("an error that does not name the file") }
    } catch {
        fatalError("CrashReport threw a non-DecodeError: \(error)")
    }
    return 0
}
