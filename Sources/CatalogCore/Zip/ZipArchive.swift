#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A zip archive read through its central directory. Opening reads only the end records and the
/// central directory; `contents(of:limit:)` reads (and inflates) one entry on demand. Every size and
/// offset from the file is checked against the file size and fixed caps before it is used, so a
/// malformed or hostile archive produces a `DecodeError`, never a crash or an unbounded allocation.
package struct ZipArchive: Sendable {
    /// Most entries an archive may list.
    package static let maxEntryCount: UInt64 = 1_000_000
    /// Largest central directory accepted (bytes).
    package static let maxCentralDirectorySize: UInt64 = 256 * 1024 * 1024
    /// Longest entry name accepted (bytes).
    package static let maxNameLength = 16 * 1024

    package let path: String
    package let entries: [ZipEntry]
    /// The whole archive when it was given as bytes; nil when it is read from `path` on demand.
    private let bytes: [UInt8]?

    /// Opens the file and reads only the end-of-central-directory record(s) and the central directory.
    /// Supports zip64 (EOCD64 + locator, zip64 extra field 0x0001). Throws `DecodeError` with kind
    /// `.unreadable` (cannot open/read), `.empty` (zero bytes) or `.malformedZip`, naming `path`.
    package init(path: String) throws {
        self.path = path
        bytes = nil
        do {
            let file = try ZipFile(path: path)
            defer { file.close() }
            entries = try Self.readCentralDirectory(file)
        } catch let error as DecodeError {
            throw error.at(path: path)
        }
    }

    /// The same over an archive already in memory (an `.ipa` downloaded, not saved); `path` only
    /// names it in errors.
    package init(bytes: [UInt8], path: String) throws {
        self.path = path
        self.bytes = bytes
        do {
            entries = try Self.readCentralDirectory(ZipFile(bytes: bytes))
        } catch let error as DecodeError {
            throw error.at(path: path)
        }
    }

    /// The first entry named exactly `name`.
    package func entry(named name: String) -> ZipEntry? {
        entries.first { $0.name == name }
    }

    /// Reads and (for method 8) inflates one entry. Throws `.tooLarge` when the declared uncompressed
    /// size exceeds `limit`; stops inflating as soon as the output exceeds the declared size
    /// (`.malformedZip`); checks the CRC-32; unsupported methods and encrypted entries are
    /// `.malformedZip`.
    package func contents(of entry: ZipEntry, limit: Int) throws -> [UInt8] {
        do {
            return try read(entry, limit: limit)
        } catch let error as DecodeError {
            throw error.at(path: path)
        }
    }

    // MARK: - Central directory

    private static let eocdSize: UInt64 = 22
    private static let locatorSize: UInt64 = 20
    private static let eocd64Size: UInt64 = 56
    private static let maxCommentLength: UInt64 = 0xFFFF

    private struct EndRecord {
        var entryCount: UInt64
        var directorySize: UInt64
        var directoryOffset: UInt64
        /// Where the end records start: the central directory must end at or before this.
        var endRecordsOffset: UInt64
    }

    private static func readCentralDirectory(_ file: ZipFile) throws -> [ZipEntry] {
        let end = try findEndRecord(file)
        guard end.entryCount <= maxEntryCount else {
            throw DecodeError(.malformedZip, "archive lists \(end.entryCount) entries (limit \(maxEntryCount))")
        }
        guard end.directorySize <= maxCentralDirectorySize else {
            throw DecodeError(.malformedZip,
                              "central directory is \(end.directorySize) bytes (limit \(maxCentralDirectorySize))")
        }
        guard end.directoryOffset <= file.size else {
            throw DecodeError(.malformedZip,
                              "central directory offset \(end.directoryOffset) is past the end of the file (\(file.size) bytes)")
        }
        let (directoryEnd, overflow) = end.directoryOffset.addingReportingOverflow(end.directorySize)
        guard !overflow, directoryEnd <= end.endRecordsOffset else {
            throw DecodeError(.malformedZip, "central directory runs past the end records (truncated archive?)")
        }
        // Each entry takes at least 46 bytes, which bounds the count by the directory size.
        guard end.entryCount <= end.directorySize / 46 else {
            throw DecodeError(.malformedZip,
                              "central directory of \(end.directorySize) bytes cannot hold \(end.entryCount) entries")
        }

        let directory = try file.read(at: end.directoryOffset, count: Int(end.directorySize))
        var reader = ByteReader(directory)
        var entries: [ZipEntry] = []
        entries.reserveCapacity(Int(end.entryCount))
        for index in 0..<end.entryCount {
            let entryOffset = end.directoryOffset + UInt64(reader.position)
            func fail(_ what: String) -> DecodeError {
                DecodeError(.malformedZip, "central directory entry \(index) \(what)", offset: Int(exactly: entryOffset))
            }
            guard let header = reader.take(46) else { throw fail("is truncated") }
            guard header.u32(0) == 0x0201_4B50 else { throw fail("has a bad signature") }
            let flags = header.u16(8)
            let method = header.u16(10)
            let crc = header.u32(16)
            var compressedSize = UInt64(header.u32(20))
            var uncompressedSize = UInt64(header.u32(24))
            let nameLength = Int(header.u16(28))
            let extraLength = Int(header.u16(30))
            let commentLength = Int(header.u16(32))
            let diskStart = header.u16(34)
            var localOffset = UInt64(header.u32(42))
            guard nameLength <= maxNameLength else { throw fail("has a \(nameLength)-byte name") }
            guard let nameBytes = reader.take(nameLength),
                  let extra = reader.take(extraLength),
                  reader.take(commentLength) != nil else { throw fail("is truncated") }

            let needsUncompressed = uncompressedSize == 0xFFFF_FFFF
            let needsCompressed = compressedSize == 0xFFFF_FFFF
            let needsOffset = localOffset == 0xFFFF_FFFF
            if needsUncompressed || needsCompressed || needsOffset || diskStart == 0xFFFF {
                if let zip64 = zip64Field(in: extra) {
                    var fields = ByteReader(zip64)
                    if needsUncompressed {
                        guard let value = fields.u64() else { throw fail("lacks its zip64 uncompressed size") }
                        uncompressedSize = value
                    }
                    if needsCompressed {
                        guard let value = fields.u64() else { throw fail("lacks its zip64 compressed size") }
                        compressedSize = value
                    }
                    if needsOffset {
                        guard let value = fields.u64() else { throw fail("lacks its zip64 local header offset") }
                        localOffset = value
                    }
                } else if needsUncompressed || needsCompressed || needsOffset {
                    throw fail("has saturated sizes but no zip64 extra field")
                }
            }
            entries.append(ZipEntry(
                name: String(decoding: nameBytes, as: UTF8.self),
                method: method,
                compressedSize: compressedSize,
                uncompressedSize: uncompressedSize,
                crc32: crc,
                localHeaderOffset: localOffset,
                flags: flags))
        }
        return entries
    }

    /// The data of the first zip64 extended-information field (id 0x0001), if the extra block has one.
    /// A malformed extra block ends the search rather than failing.
    private static func zip64Field(in extra: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var reader = ByteReader(extra)
        while let id = reader.u16(), let size = reader.u16() {
            guard let data = reader.take(Int(size)) else { return nil }
            if id == 0x0001 { return data }
        }
        return nil
    }

    private static func findEndRecord(_ file: ZipFile) throws -> EndRecord {
        guard file.size > 0 else { throw DecodeError(.empty, "the file is empty") }
        guard file.size >= eocdSize else {
            throw DecodeError(.malformedZip, "the file is too short (\(file.size) bytes) to be a zip archive")
        }
        let tailLength = min(file.size, eocdSize + maxCommentLength)
        let tailStart = file.size - tailLength
        let tail = try file.read(at: tailStart, count: Int(tailLength))

        // Search backwards for the signature; prefer a record whose comment ends exactly at the end
        // of the file (a signature inside a comment rarely satisfies that), then accept trailing bytes.
        var candidates: [Int] = []
        var index = tail.count - Int(eocdSize)
        while index >= 0 {
            if tail[index] == 0x50, tail[index + 1] == 0x4B, tail[index + 2] == 0x05, tail[index + 3] == 0x06 {
                candidates.append(index)
            }
            index -= 1
        }
        func commentEnd(_ candidate: Int) -> Int {
            candidate + Int(eocdSize) + Int(tail[tail.startIndex...].u16(candidate + 20))
        }
        guard let found = candidates.first(where: { commentEnd($0) == tail.count })
                ?? candidates.first(where: { commentEnd($0) <= tail.count }) else {
            throw DecodeError(.malformedZip, "no end-of-central-directory record (not a zip archive, or truncated)")
        }
        let record = tail[found..<(found + Int(eocdSize))]
        let eocdOffset = tailStart + UInt64(found)
        let diskNumber = record.u16(4)
        let directoryDisk = record.u16(6)
        var end = EndRecord(
            entryCount: UInt64(record.u16(10)),
            directorySize: UInt64(record.u32(12)),
            directoryOffset: UInt64(record.u32(16)),
            endRecordsOffset: eocdOffset)
        let saturated = record.u16(8) == 0xFFFF || record.u16(10) == 0xFFFF
            || record.u32(12) == 0xFFFF_FFFF || record.u32(16) == 0xFFFF_FFFF
        // Without a zip64 locator, saturated fields are taken at face value (an archive may really
        // hold 65,535 entries); the checks on the central directory catch inconsistent ones.

        // zip64: a locator sits right before the EOCD and points at the EOCD64 record.
        var locator: ArraySlice<UInt8>? = nil
        if eocdOffset >= locatorSize {
            let locatorOffset = eocdOffset - locatorSize
            let bytes = try file.read(at: locatorOffset, count: Int(locatorSize))
            if bytes.u32(0) == 0x0706_4B50 { locator = bytes[...] }
        }
        if let locator {
            let locatorOffset = eocdOffset - locatorSize
            let recordOffset = locator.u64(8)
            guard recordOffset <= locatorOffset, locatorOffset - recordOffset >= eocd64Size else {
                throw DecodeError(.malformedZip, "zip64 locator points outside the archive",
                                  offset: Int(exactly: locatorOffset))
            }
            let record64 = try file.read(at: recordOffset, count: Int(eocd64Size))[...]
            guard record64.u32(0) == 0x0606_4B50 else {
                throw DecodeError(.malformedZip, "zip64 end-of-central-directory record not found",
                                  offset: Int(exactly: recordOffset))
            }
            guard record64.u32(16) == 0, record64.u32(20) == 0 else {
                throw DecodeError(.malformedZip, "multi-disk zip archives are not supported")
            }
            end = EndRecord(
                entryCount: record64.u64(32),
                directorySize: record64.u64(40),
                directoryOffset: record64.u64(48),
                endRecordsOffset: recordOffset)
        } else if !saturated && (diskNumber != 0 || directoryDisk != 0) {
            throw DecodeError(.malformedZip, "multi-disk zip archives are not supported")
        }
        return end
    }

    // MARK: - Entry data

    private func read(_ entry: ZipEntry, limit: Int) throws -> [UInt8] {
        let cap = UInt64(max(limit, 0))
        guard entry.uncompressedSize <= cap else {
            throw DecodeError(.tooLarge,
                              "\(entry.name) is \(entry.uncompressedSize) bytes uncompressed (limit \(cap))")
        }
        guard !entry.isEncrypted else {
            throw DecodeError(.malformedZip, "\(entry.name) is encrypted")
        }
        guard entry.method == 0 || entry.method == 8 else {
            throw DecodeError(.malformedZip,
                              "\(entry.name) uses compression method \(entry.method); only stored (0) and deflated (8) are supported")
        }
        let file = try bytes.map(ZipFile.init(bytes:)) ?? ZipFile(path: path)
        defer { file.close() }

        let headerOffset = entry.localHeaderOffset
        guard headerOffset <= file.size, file.size - headerOffset >= 30 else {
            throw DecodeError(.malformedZip, "\(entry.name): local header offset \(headerOffset) is past the end of the file")
        }
        let header = try file.read(at: headerOffset, count: 30)[...]
        guard header.u32(0) == 0x0403_4B50 else {
            throw DecodeError(.malformedZip, "\(entry.name): bad local header signature",
                              offset: Int(exactly: headerOffset))
        }
        // The local header's own name/extra lengths locate the data (they may differ from the
        // central directory's).
        let dataOffset = headerOffset + 30 + UInt64(header.u16(26)) + UInt64(header.u16(28))
        guard dataOffset <= file.size, file.size - dataOffset >= entry.compressedSize else {
            throw DecodeError(.malformedZip,
                              "\(entry.name): \(entry.compressedSize) bytes of data do not fit in the file",
                              offset: Int(exactly: headerOffset))
        }

        let output: [UInt8]
        if entry.method == 0 {
            guard entry.compressedSize == entry.uncompressedSize else {
                throw DecodeError(.malformedZip,
                                  "\(entry.name): stored entry has compressed size \(entry.compressedSize) but uncompressed size \(entry.uncompressedSize)")
            }
            output = try file.read(at: dataOffset, count: Int(entry.compressedSize))
        } else {
            do {
                output = try Inflater.inflateRaw(compressedSize: entry.compressedSize,
                                                 maxOutput: entry.uncompressedSize) { offset, count in
                    try file.read(at: dataOffset + offset, count: count)
                }
            } catch var error as DecodeError {
                error.reason = "\(entry.name): \(error.reason)"
                throw error
            }
            guard UInt64(output.count) == entry.uncompressedSize else {
                throw DecodeError(.malformedZip,
                                  "\(entry.name): inflates to \(output.count) bytes, not the declared \(entry.uncompressedSize)")
            }
        }
        let crc = Inflater.crc32(output)
        guard crc == entry.crc32 else {
            throw DecodeError(.malformedZip,
                              "\(entry.name): CRC-32 mismatch (computed \(hex(crc)), declared \(hex(entry.crc32)))")
        }
        return output
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}

// MARK: - File access

/// A read-only file descriptor with positioned reads, or bytes already in memory. Owned by one
/// call; closed explicitly. Opened through ``FileBytes/openRegularFile(_:)``, so a FIFO never blocks
/// and is refused.
private struct ZipFile {
    private let file: FileBytes.RegularFile?
    private let bytes: [UInt8]
    let size: UInt64

    init(path: String) throws {
        let file = try FileBytes.openRegularFile(path)
        self.file = file
        bytes = []
        size = UInt64(max(0, file.size))
    }

    init(bytes: [UInt8]) {
        file = nil
        self.bytes = bytes
        size = UInt64(bytes.count)
    }

    func close() {
        file?.close()
    }

    /// Exactly `count` bytes at `offset`; a short read means the file is truncated.
    func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        guard count >= 0, offset <= size, UInt64(count) <= size - offset else {
            throw DecodeError(.malformedZip, "read of \(count) bytes at \(offset) runs past the end of the file",
                              offset: Int(exactly: offset))
        }
        guard let descriptor = file?.descriptor else { return Array(bytes[Int(offset)..<Int(offset) + count]) }
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return pread(descriptor, base + done, count - done, off_t(offset) + off_t(done))
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw DecodeError(.unreadable, "read failed: \(String(cString: strerror(errno)))")
            }
            if got == 0 {
                throw DecodeError(.malformedZip, "file ends early (truncated while reading?)",
                                  offset: Int(exactly: offset))
            }
            done += got
        }
        return buffer
    }
}

// MARK: - Little-endian reading

/// Sequential little-endian reads from a byte slice; every read is bounds-checked and returns nil
/// when the bytes run out.
private struct ByteReader {
    let bytes: ArraySlice<UInt8>
    private(set) var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes[...] }
    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, bytes.count - position >= count else { return nil }
        let start = bytes.startIndex + position
        position += count
        return bytes[start..<(start + count)]
    }

    mutating func u16() -> UInt16? { take(2).map { $0.u16(0) } }
    mutating func u64() -> UInt64? { take(8).map { $0.u64(0) } }
}

private extension ArraySlice<UInt8> {
    /// Little-endian integers at `offset` from the slice start; callers guarantee the bounds.
    func u16(_ offset: Int) -> UInt16 {
        let i = startIndex + offset
        return UInt16(self[i]) | UInt16(self[i + 1]) << 8
    }

    func u32(_ offset: Int) -> UInt32 {
        let i = startIndex + offset
        return UInt32(self[i]) | UInt32(self[i + 1]) << 8 | UInt32(self[i + 2]) << 16 | UInt32(self[i + 3]) << 24
    }

    func u64(_ offset: Int) -> UInt64 {
        UInt64(u32(offset)) | UInt64(u32(offset + 4)) << 32
    }
}

private extension Array<UInt8> {
    func u32(_ offset: Int) -> UInt32 { self[...].u32(offset) }
}
