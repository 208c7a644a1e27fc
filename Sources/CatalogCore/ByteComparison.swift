import Foundation

/// Whether two byte arrays are equal, by one memcmp: `[UInt8]`'s `==` compares element by element,
/// which showed where whole certificates and plists are compared (the decoders' DER caches, the
/// compaction's self-check).
package enum ByteComparison {
    package static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in
                guard let p = x.baseAddress, let q = y.baseAddress else { return true }  // both empty
                return memcmp(p, q, x.count) == 0
            }
        }
    }
}
