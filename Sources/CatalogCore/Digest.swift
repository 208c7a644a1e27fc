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
            _ = SHA1(pointer?.assumingMemoryBound(to: UInt8.self), count, &out)
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
            _ = SHA256(pointer?.assumingMemoryBound(to: UInt8.self), count, &out)
            #endif
        }
        return out
    }

    package static func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        let digits: [UInt8] = Array("0123456789ABCDEF".utf8)
        var chars: [UInt8] = []
        chars.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            chars.append(digits[Int(byte >> 4)])
            chars.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: chars, as: UTF8.self)
    }

    package static func sha1Hex<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String { hex(sha1(bytes)) }
    package static func sha256Hex<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String { hex(sha256(bytes)) }

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
