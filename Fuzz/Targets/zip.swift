// libFuzzer target: the zip reader. ZipArchive reads from a path, so each input is written to one
// temp file (reused across runs) and every entry is read with a 1 MB limit.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private let fuzzZipPath: String = {
    let dir = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    return "\(dir)/catalog-fuzz-zip-\(getpid()).zip"
}()

private func writeInput(_ data: UnsafePointer<UInt8>, _ size: Int) {
    let fd = open(fuzzZipPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(fd >= 0, "cannot create \(fuzzZipPath)")
    defer { close(fd) }
    var written = 0
    while written < size {
        let count = write(fd, data + written, size - written)
        precondition(count > 0, "cannot write \(fuzzZipPath)")
        written += count
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    writeInput(data, size)
    do {
        let archive = try ZipArchive(path: fuzzZipPath)
        for entry in archive.entries {
            do {
                let bytes = try archive.contents(of: entry, limit: 1 << 20)
                precondition(bytes.count <= 1 << 20, "contents(of:limit:) returned more than the limit")
            } catch is DecodeError {
            }
        }
    } catch is DecodeError {
    } catch {
        fatalError("ZipArchive threw a non-DecodeError: \(error)")
    }
    return 0
}
