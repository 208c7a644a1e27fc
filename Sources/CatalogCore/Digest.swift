import Foundation
#if canImport(CommonCrypto)
import CommonCrypto
#elseif canImport(CCatalogCrypto)
import CCatalogCrypto
#endif

/// SHA-1 and SHA-256 through the platform's crypto library (CommonCrypto on Apple systems,
/// libcrypto elsewhere), printed as uppercase hex without separators.
package enum Digest {
    package static func sha1<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 20)
        withContiguous(bytes) { pointer, count in
            #if canImport(CommonCrypto)
            _ = CC_SHA1(pointer, CC_LONG(count), &out)
            #else
            oneShot(pointer, count, into: &out, fetched: LibcryptoDigests.sha1, or: SHA1)
            #endif
        }
        return out
    }

    package static func sha256<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        withContiguous(bytes) { pointer, count in
            #if canImport(CommonCrypto)
            _ = CC_SHA256(pointer, CC_LONG(count), &out)
            #else
            oneShot(pointer, count, into: &out, fetched: LibcryptoDigests.sha256, or: SHA256)
            #endif
        }
        return out
    }

    package static func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        bytes.withContiguousStorageIfAvailable { hex($0) } ?? hex(Array(bytes))
    }

    /// The bytes of an array in uppercase hex. Called from other modules, the generic
    /// ``hex(_:)-(Bytes)`` runs unspecialized, an iterator call per byte.
    package static func hex(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { hex($0) }
    }

    package static func hex(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            for (index, byte) in bytes.enumerated() {
                out[2 * index] = hexDigits[Int(byte >> 4)]
                out[2 * index + 1] = hexDigits[Int(byte & 0x0F)]
            }
            return bytes.count * 2
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    package static func sha1Hex<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String { hex(sha1(bytes)) }
    package static func sha256Hex<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String { hex(sha256(bytes)) }

    #if !canImport(CommonCrypto)
    /// `EVP_Digest` with the fetched implementation, else the library's one-shot function.
    private static func oneShot(_ pointer: UnsafeRawPointer?, _ count: Int, into out: inout [UInt8], fetched: OpaquePointer?,
                                or fallback: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>?) {
        if let fetched, EVP_Digest(pointer, count, &out, nil, fetched, nil) == 1 { return }
        _ = fallback(pointer?.assumingMemoryBound(to: UInt8.self), count, &out)
    }
    #endif

    private static func withContiguous<Bytes: Collection<UInt8>>(
        _ bytes: Bytes, _ body: (UnsafeRawPointer?, Int) -> Void
    ) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            body(UnsafeRawPointer(buffer.baseAddress), buffer.count)
        }
        if done == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { body($0.baseAddress, $0.count) }
        }
    }
}
