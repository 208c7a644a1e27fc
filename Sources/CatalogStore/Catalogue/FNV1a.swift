/// FNV-1a (64-bit): a small hash of bytes that is the same on every platform and in every run,
/// unlike Swift's seeded `Hasher` — for the PostgreSQL advisory-lock keys, which other processes
/// must compute alike.
enum FNV1a {
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }
}
