/// A zip written by a test, of stored (uncompressed) entries made by a Unix host: each a file, or a
/// symbolic link (its mode says so, its contents are the target) as `ditto` stores one.
public enum StoredZip {
    public struct Member: Sendable {
        public var name: String
        public var contents: [UInt8]
        public var isLink: Bool

        public init(_ name: String, _ contents: [UInt8], isLink: Bool = false) {
            self.name = name
            self.contents = contents
            self.isLink = isLink
        }

        public init(_ name: String, _ text: String, isLink: Bool = false) {
            self.init(name, Array(text.utf8), isLink: isLink)
        }
    }

    public static func bytes(_ members: [Member]) -> [UInt8] {
        var local: [UInt8] = [], central: [UInt8] = []
        func u16(_ value: Int, _ out: inout [UInt8]) { out += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: UInt32, _ out: inout [UInt8]) { for shift: UInt32 in [0, 8, 16, 24] { out.append(UInt8(value >> shift & 0xFF)) } }
        for member in members {
            let name = Array(member.name.utf8), data = member.contents, crc = crc32(data), offset = UInt32(local.count)
            u32(0x0403_4B50, &local); u16(20, &local); u16(0, &local); u16(0, &local); u16(0, &local); u16(0, &local)
            u32(crc, &local); u32(UInt32(data.count), &local); u32(UInt32(data.count), &local)
            u16(name.count, &local); u16(0, &local)
            local += name + data
            u32(0x0201_4B50, &central); u16(3 << 8 | 20, &central); u16(20, &central); u16(0, &central); u16(0, &central)
            u16(0, &central); u16(0, &central); u32(crc, &central); u32(UInt32(data.count), &central)
            u32(UInt32(data.count), &central); u16(name.count, &central); u16(0, &central); u16(0, &central)
            u16(0, &central); u16(0, &central); u32(UInt32(member.isLink ? 0o120755 : 0o100644) << 16, &central)
            u32(offset, &central)
            central += name
        }
        var end: [UInt8] = []
        u32(0x0605_4B50, &end); u16(0, &end); u16(0, &end); u16(members.count, &end); u16(members.count, &end)
        u32(UInt32(central.count), &end); u32(UInt32(local.count), &end); u16(0, &end)
        return local + central + end
    }

    /// CRC-32 (ISO 3309, the zip one), bit by bit: test zips are small.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? crc >> 1 ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
