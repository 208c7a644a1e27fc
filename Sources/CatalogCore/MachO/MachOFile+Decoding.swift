import Foundation

extension MachOFile {
    /// Most slices a fat header may list (real files have two or three).
    static let maximumSliceCount: UInt32 = 64
    /// Largest `sizeofcmds` accepted: real binaries have a few kilobytes of load commands.
    static let maximumLoadCommandsSize: UInt32 = 16 << 20
    /// Largest code signature read: well above what the page hashes of the largest real binaries fill.
    static let maximumSignatureSize: UInt32 = 128 << 20

    /// `FAT_MAGIC`, `FAT_MAGIC_64` (always big-endian on disk), `MH_MAGIC`, `MH_MAGIC_64`.
    static let fatMagic: UInt32 = 0xCAFE_BABE
    static let fatMagic64: UInt32 = 0xCAFE_BABF
    static let magic32: UInt32 = 0xFEED_FACE
    static let magic64: UInt32 = 0xFEED_FACF

    /// Whether `prefix` (a file's first four bytes or more) starts like a Mach-O or fat binary.
    package static func hasMagic(_ prefix: some Collection<UInt8>) -> Bool {
        guard let value = try? ByteReader(Array(prefix.prefix(4))).uint32(at: 0, .bigEndian) else { return false }
        let swapped = value.byteSwapped
        return value == fatMagic || value == fatMagic64 || [magic32, magic64].contains(value) || [magic32, magic64].contains(swapped)
    }

    /// Reads the binary through `reader`, asking for the fat header, each slice's header and load
    /// commands, and each code signature, in increasing file order. Errors name `path`.
    package init(reader: any RangeReader, path: String, trust: TrustAnchors? = .apple) throws {
        do {
            self = try Self.parse(Self.seekable(reader), path: path, trust: trust)
        } catch let error as DecodeError {
            throw error.at(path: path)
        }
    }

    /// Largest deflated binary inflated whole before it is read.
    static let maximumInflatedInMemory: UInt64 = 64 << 20

    /// A deflated zip entry inflated once into memory: the page checks read the code after the
    /// signature at its end, which would inflate the entry a second time. Kept for speed (cold
    /// ingest of `.ipa`s, bench.py integrity_extra).
    private static func seekable(_ reader: any RangeReader) throws -> any RangeReader {
        guard reader is InflatingRangeReader, reader.size <= maximumInflatedInMemory else { return reader }
        return MemoryRangeReader(try reader.read(at: 0, count: Int(reader.size)))
    }

    private static func fail(_ reason: String, at offset: UInt64? = nil) -> DecodeError {
        DecodeError(.malformedMachO, reason, offset: offset.flatMap { Int(exactly: $0) })
    }

    private static func parse(_ reader: any RangeReader, path: String, trust: TrustAnchors?) throws -> MachOFile {
        guard reader.size > 0 else { throw DecodeError(.empty, "the file is empty") }
        guard reader.size >= 4 else { throw DecodeError(.unrecognized, "not a Mach-O binary (\(reader.size) bytes)") }
        let head = ByteReader(try reader.read(at: 0, count: 4))
        let magic = (try? head.uint32(at: 0, .bigEndian)) ?? 0
        guard magic == fatMagic || magic == fatMagic64 else {
            return MachOFile(layout: .thin, slices: [try slice(reader, offset: 0, size: reader.size, path: path, trust: trust)])
        }
        let is64 = magic == fatMagic64
        guard reader.contains(offset: 0, count: 8) else { throw fail("the fat header is truncated", at: 0) }
        let countField = ByteReader(try reader.read(at: 4, count: 4))
        let count = (try? countField.uint32(at: 0, .bigEndian)) ?? 0
        guard count > 0 else { throw fail("the fat header lists no architectures", at: 4) }
        guard count <= maximumSliceCount else {
            throw fail("the fat header lists \(count) architectures (at most \(maximumSliceCount) are read)", at: 4)
        }
        let entrySize = is64 ? 32 : 20
        let tableSize = UInt64(count) * UInt64(entrySize)
        guard reader.contains(offset: 8, count: tableSize) else {
            throw fail("the fat header's table of \(count) architectures runs past the end of the file", at: 8)
        }
        let table = ByteReader(try reader.read(at: 8, count: Int(tableSize)))
        var placements: [(offset: UInt64, size: UInt64, index: Int)] = []
        for index in 0..<Int(count) {
            let base = index * entrySize
            guard let offset = try? is64 ? table.uint64(at: base + 8, .bigEndian) : UInt64(table.uint32(at: base + 8, .bigEndian)),
                  let size = try? is64 ? table.uint64(at: base + 16, .bigEndian) : UInt64(table.uint32(at: base + 12, .bigEndian))
            else { throw fail("fat architecture \(index) is truncated", at: 8 + UInt64(base)) }
            guard size > 0, reader.contains(offset: offset, count: size) else {
                throw fail("fat architecture \(index) (\(size) bytes at \(offset)) lies outside the file (\(reader.size) bytes)",
                           at: 8 + UInt64(base))
            }
            guard offset >= 8 + tableSize else {
                throw fail("fat architecture \(index) starts inside the fat header", at: 8 + UInt64(base))
            }
            placements.append((offset, size, index))
        }
        // Read in file order (a forward-only reader restarts otherwise); report in table order.
        var slices = [MachOSlice?](repeating: nil, count: placements.count)
        for placement in placements.sorted(by: { $0.offset < $1.offset }) {
            do {
                slices[placement.index] = try slice(reader, offset: placement.offset, size: placement.size, path: path, trust: trust)
            } catch var error as DecodeError {
                // Inside a fat file, a slice that is no Mach-O makes the file malformed, not unrecognised.
                if error.kind == .unrecognized { error.kind = .malformedMachO }
                error.reason = "fat architecture \(placement.index): \(error.reason)"
                throw error
            }
        }
        return MachOFile(layout: is64 ? .fat64 : .fat, slices: slices.compactMap { $0 })
    }

    /// The thin binary of `size` bytes at `offset`.
    private static func slice(_ reader: any RangeReader, offset: UInt64, size: UInt64, path: String,
                              trust: TrustAnchors?) throws -> MachOSlice {
        guard size >= 28 else { throw fail("a Mach-O header needs 28 bytes, the slice has \(size)", at: offset) }
        // The magic and the header in one read: a 32-bit header is 28 bytes, a 64-bit one 32.
        let headerBytes = try reader.read(at: offset, count: Int(min(size, 32)))
        let header = ByteReader(headerBytes)
        let bigEndian: Bool
        switch (try? header.uint32(at: 0, .bigEndian)) ?? 0 {
        case magic32, magic64: bigEndian = true
        case magic32.byteSwapped, magic64.byteSwapped: bigEndian = false
        case fatMagic, fatMagic64:
            throw fail("a fat header inside a fat binary", at: offset)
        default:
            throw DecodeError(.unrecognized, "not a Mach-O binary (magic \(Digest.hex(headerBytes.prefix(4))))",
                              offset: Int(exactly: offset))
        }
        let order: ByteReader.ByteOrder = bigEndian ? .bigEndian : .littleEndian
        let is64 = (try? header.uint32(at: 0, order)) == magic64
        let headerSize: UInt64 = is64 ? 32 : 28
        guard size >= headerSize else { throw fail("the Mach-O header is truncated", at: offset) }
        guard let cpuType = try? header.uint32(at: 4, order), let cpuSubtype = try? header.uint32(at: 8, order),
              let fileType = try? header.uint32(at: 12, order), let commandCount = try? header.uint32(at: 16, order),
              let commandsSize = try? header.uint32(at: 20, order) else {
            throw fail("the Mach-O header is truncated", at: offset)
        }
        guard commandsSize <= maximumLoadCommandsSize else {
            throw fail("sizeofcmds is \(commandsSize) bytes (at most \(maximumLoadCommandsSize) are read)", at: offset + 20)
        }
        guard UInt64(commandsSize) <= size - headerSize else {
            throw fail("the load commands (\(commandsSize) bytes) run past the end of the slice (\(size) bytes)", at: offset + 20)
        }
        guard UInt64(commandCount) * 8 <= UInt64(commandsSize) else {
            throw fail("\(commandCount) load commands cannot fit in \(commandsSize) bytes", at: offset + 16)
        }
        var result = MachOSlice(cpuType: cpuType, cpuSubtype: cpuSubtype, is64Bit: is64, isBigEndian: bigEndian,
                                fileType: fileType, offset: offset, size: size)
        let commands = ByteReader(try reader.read(at: offset + headerSize, count: Int(commandsSize)))
        try readLoadCommands(commands, order, count: Int(commandCount), into: &result, at: offset + headerSize)

        if let dataOffset = result.codeSignatureOffset, let dataSize = result.codeSignatureSize {
            do {
                let (decoded, blobs) = try signature(reader, slice: result, dataOffset: dataOffset, dataSize: dataSize, trust: trust)
                var signature = decoded
                signature.findings += CodePageCheck.findings(reader, sliceOffset: offset, sliceSize: size,
                                                             architecture: result.architecture,
                                                             directories: Array(zip(decoded.codeDirectories, blobs)))
                result.codeSignature = signature
            } catch let error as DecodeError {
                result.codeSignatureError = error.at(path: path)
            }
        }
        return result
    }

    private static let uuidCommand: UInt32 = 0x1B
    private static let segmentCommand: UInt32 = 0x1
    private static let segment64Command: UInt32 = 0x19
    private static let codeSignatureCommand: UInt32 = 0x1D
    private static let buildVersionCommand: UInt32 = 0x32
    /// `LC_VERSION_MIN_MACOSX`, `_IPHONEOS`, `_TVOS`, `_WATCHOS` and the platform each implies.
    private static let versionMinCommands: [UInt32: MachOPlatform] = [0x24: .macOS, 0x25: .iOS, 0x2F: .tvOS, 0x30: .watchOS]

    /// Walks the load commands; the first of each kind counts. `base` is their file offset.
    private static func readLoadCommands(_ commands: ByteReader, _ order: ByteReader.ByteOrder, count: Int,
                                         into slice: inout MachOSlice, at base: UInt64) throws {
        var position = 0
        var sawBuildVersion = false
        for index in 0..<count {
            guard let command = try? commands.uint32(at: position, order),
                  let commandSize = try? commands.uint32(at: position + 4, order) else {
                throw fail("load command \(index) is truncated", at: base + UInt64(position))
            }
            guard commandSize >= 8, Int(commandSize) <= commands.count - position else {
                throw fail("load command \(index) (0x\(String(command, radix: 16))) has size \(commandSize), "
                           + "outside the \(commands.count - position) bytes left", at: base + UInt64(position))
            }
            func field(_ offset: Int, needs minimum: UInt32) throws -> UInt32 {
                guard commandSize >= minimum, let value = try? commands.uint32(at: position + offset, order) else {
                    throw fail("load command \(index) (0x\(String(command, radix: 16))) is \(commandSize) bytes, "
                               + "fewer than its \(minimum)", at: base + UInt64(position))
                }
                return value
            }
            switch command {
            case uuidCommand where slice.uuid == nil:
                _ = try field(20, needs: 24)
                slice.uuid = (try? commands.bytes(at: position + 8, count: 16)).map { formatUUID($0) }
            case segmentCommand, segment64Command:
                // Only read, never a reason to refuse the file: a segment too short is passed over.
                let is64 = command == segment64Command
                guard slice.textAddress == nil, commandSize >= (is64 ? 72 : 56),
                      let name = try? commands.bytes(at: position + 8, count: 16),
                      Array(name.prefix { $0 != 0 }) == Array("__TEXT".utf8) else { break }
                slice.textAddress = is64 ? try? commands.uint64(at: position + 24, order)
                                         : (try? commands.uint32(at: position + 24, order)).map(UInt64.init)
            case codeSignatureCommand where slice.codeSignatureOffset == nil:
                slice.codeSignatureOffset = try field(8, needs: 16)
                slice.codeSignatureSize = try field(12, needs: 16)
            case buildVersionCommand where !sawBuildVersion:
                sawBuildVersion = true
                slice.platform = MachOPlatform(rawValue: try field(8, needs: 24))
                slice.minimumOS = formatVersion(try field(12, needs: 24))
                slice.sdk = formatVersion(try field(16, needs: 24))
            case let minimum where versionMinCommands[minimum] != nil && !sawBuildVersion && slice.platform == nil:
                let version = try field(8, needs: 16), sdk = try field(12, needs: 16)
                slice.platform = versionMinCommands[minimum]
                slice.minimumOS = formatVersion(version)
                slice.sdk = formatVersion(sdk)
            default:
                break
            }
            position += Int(commandSize)
        }
    }

    /// The SuperBlob at `dataOffset` from the slice start, decoded.
    private static func signature(_ reader: any RangeReader, slice: MachOSlice, dataOffset: UInt32, dataSize: UInt32,
                                  trust: TrustAnchors?) throws -> (CodeSignature, [ArraySlice<UInt8>]) {
        guard dataSize > 0 else { throw fail("LC_CODE_SIGNATURE points at 0 bytes", at: slice.offset + UInt64(dataOffset)) }
        guard dataSize <= maximumSignatureSize else {
            throw fail("the code signature is \(dataSize) bytes (at most \(maximumSignatureSize) are read)",
                       at: slice.offset + UInt64(dataOffset))
        }
        guard UInt64(dataOffset) <= slice.size, UInt64(dataSize) <= slice.size - UInt64(dataOffset) else {
            throw fail("the code signature (\(dataSize) bytes at \(dataOffset)) runs past the end of the slice (\(slice.size) bytes)",
                       at: slice.offset + UInt64(dataOffset))
        }
        let start = slice.offset + UInt64(dataOffset)
        let bytes = try reader.read(at: start, count: Int(dataSize))
        do {
            let decoded = try CodeSignature.decode(superBlob: bytes, trust: trust)
            return (decoded.signature, decoded.directoryBlobs)
        } catch var error as DecodeError {
            // Offsets inside the blob become file offsets.
            error.offset = error.offset.map { $0 + Int(start) }
            throw error
        }
    }

    /// `6D254A2F-0A5E-3FAF-8E04-99D099B16B6C`, from 16 bytes or (`hex`) from their 32 hex digits.
    static func formatUUID(_ bytes: ArraySlice<UInt8>, hex isHex: Bool = false) -> String {
        let hex = isHex ? String(decoding: bytes, as: UTF8.self) : Digest.hex(bytes)
        var out = ""
        for (index, character) in hex.enumerated() {
            if [8, 12, 16, 20].contains(index) { out.append("-") }
            out.append(character)
        }
        return out
    }

    /// `xxxx.yy.zz` nibbles as `16.0`, or `13.2.1` when the last part is set.
    static func formatVersion(_ value: UInt32) -> String {
        let major = value >> 16, minor = (value >> 8) & 0xFF, patch = value & 0xFF
        return patch == 0 ? "\(major).\(minor)" : "\(major).\(minor).\(patch)"
    }
}
