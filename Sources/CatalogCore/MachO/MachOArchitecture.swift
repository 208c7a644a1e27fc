/// The name `lipo`, `file` and crash reports give a CPU type and subtype (`<mach/machine.h>`).
enum MachOArchitecture {
    static let cpuArch64: UInt32 = 0x0100_0000
    static let cpuArch64_32: UInt32 = 0x0200_0000
    static let x86: UInt32 = 7
    static let arm: UInt32 = 12
    static let powerPC: UInt32 = 18
    static let x86_64 = x86 | cpuArch64
    static let arm64 = arm | cpuArch64
    static let arm64_32 = arm | cpuArch64_32
    static let powerPC64 = powerPC | cpuArch64

    /// The subtype's capability bits (the top byte: arm64e's pointer-authentication ABI version, …)
    /// say nothing about the architecture.
    static let subtypeMask: UInt32 = 0x00FF_FFFF

    /// `arm64`, `arm64e`, `x86_64`, `armv7s`, …; an unknown pair as `cpu-0x…-…` so it still shows.
    static func name(cpuType: UInt32, cpuSubtype: UInt32) -> String {
        let subtype = cpuSubtype & subtypeMask
        switch cpuType {
        case arm64:
            switch subtype {
            case 1: return "arm64v8"
            case 2: return "arm64e"
            default: return "arm64"
            }
        case arm64_32: return "arm64_32"
        case x86_64: return subtype == 8 ? "x86_64h" : "x86_64"
        case x86: return "i386"
        case arm:
            let names: [UInt32: String] = [5: "armv4t", 6: "armv6", 7: "armv5", 8: "xscale", 9: "armv7", 10: "armv7f",
                                           11: "armv7s", 12: "armv7k", 13: "armv8", 14: "armv6m", 15: "armv7m", 16: "armv7em"]
            return names[subtype] ?? "arm"
        case powerPC: return subtype == 100 ? "ppc970" : "ppc"
        case powerPC64: return "ppc64"
        default:
            return "cpu-0x\(String(cpuType, radix: 16))-\(subtype)"
        }
    }
}
