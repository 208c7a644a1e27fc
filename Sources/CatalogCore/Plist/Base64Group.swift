/// Four base64 digits: the unit ``XMLPropertyListParser`` decodes `<data>` in.
package enum Base64Group {
    /// Writes the three bytes of four digit values, each below 64, at `output[offset...]`.
    @inlinable @inline(__always)
    package static func write(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8,
                              to output: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
        output[offset] = UInt8(truncatingIfNeeded: group >> 16)
        output[offset + 1] = UInt8(truncatingIfNeeded: group >> 8)
        output[offset + 2] = UInt8(truncatingIfNeeded: group)
    }
}
