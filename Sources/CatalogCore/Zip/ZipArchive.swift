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

    /// The central directory: the end record's bounds checked, then one file header per entry.
    private static func readCentralDirectory(_ file: ZipFile) throws -> [ZipEntry] {
        let end = try findEndRecord(file)
        try checkDirectoryBounds(end, fileSize: file.size)
        let directory = try file.read(at: end.directoryOffset, count: Int(end.directorySize))
        var reader = ByteReader(directory)
        var entries: [ZipEntry] = []
        entries.reserveCapacity(Int(end.entryCount))
        for index in 0..<end.entryCount {
            entries.append(try readFileHeader(&reader, index: index, directoryOffset: end.directoryOffset))
        }
        return entries
    }

    /// Checks the end record's entry count, directory size and offset against the caps, the file and
    /// each other before anything is allocated for them.
    private static func checkDirectoryBounds(_ end: EndRecord, fileSize: UInt64) throws {
        guard end.entryCount <= maxEntryCount else {
            throw DecodeError(.malformedZip, "archive lists \(end.entryCount) entries (limit \(maxEntryCount))")
        }
        guard end.directorySize <= maxCentralDirectorySize else {
            throw DecodeError(.malformedZip,
                              "central directory is \(end.directorySize) bytes (limit \(maxCentralDirectorySize))")
        }
        guard end.directoryOffset <= fileSize else {
            throw DecodeError(.malformedZip,
                              "central directory offset \(end.directoryOffset) is past the end of the file (\(fileSize) bytes)")
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
    }

    /// The sizes and local header offset of a central directory file header: 32-bit fields, any of
    /// which 0xFFFFFFFF saturates, in favour of the zip64 extra field.
    private struct EntryExtent {
        var compressedSize: UInt64
        var uncompressedSize: UInt64
        var localOffset: UInt64

        var isSaturated: Bool {
            compressedSize == 0xFFFF_FFFF || uncompressedSize == 0xFFFF_FFFF || localOffset == 0xFFFF_FFFF
        }
    }

    /// Central directory file header `index` (APPNOTE 4.3.12): the fixed 46 bytes, then the name,
    /// extra field and comment.
    @inline(__always)  // once per entry; measured with callgrind
    private static func readFileHeader(_ reader: inout ByteReader, index: UInt64,
                                       directoryOffset: UInt64) throws -> ZipEntry {
        let entryOffset = directoryOffset + UInt64(reader.position)
        func fail(_ what: String) -> DecodeError {
            DecodeError(.malformedZip, "central directory entry \(index) \(what)", offset: Int(exactly: entryOffset))
        }
        guard let header = try? reader.readBytes(46) else { throw fail("is truncated") }
        guard header.u32(0) == 0x0201_4B50 else { throw fail("has a bad signature") }
        var extent = EntryExtent(compressedSize: UInt64(header.u32(20)), uncompressedSize: UInt64(header.u32(24)),
                                 localOffset: UInt64(header.u32(42)))
        let nameLength = Int(header.u16(28))
        guard nameLength <= maxNameLength else { throw fail("has a \(nameLength)-byte name") }
        guard let nameBytes = try? reader.readBytes(nameLength),
              let extra = try? reader.readBytes(Int(header.u16(30))),
              (try? reader.readBytes(Int(header.u16(32)))) != nil else { throw fail("is truncated") }
        if extent.isSaturated || header.u16(34) == 0xFFFF {
            try readZip64Extent(&extent, extra: extra, fail: fail)
        }
        return ZipEntry(
            name: String(decoding: nameBytes, as: UTF8.self),
            method: header.u16(10),
            compressedSize: extent.compressedSize,
            uncompressedSize: extent.uncompressedSize,
            crc32: header.u32(16),
            localHeaderOffset: extent.localOffset,
            flags: header.u16(8),
            isSymbolicLink: header.u16(4) >> 8 == ZipEntry.unixHost && (header.u32(38) >> 16) & 0o170000 == 0o120000)
    }

    /// Replaces the saturated fields of `extent` with the zip64 extended-information field's 64-bit
    /// values, which stand in the order uncompressed size, compressed size, local header offset and
    /// only for the fields that are saturated (APPNOTE 4.5.3). Called when a field or the disk number
    /// is saturated; a saturated disk number alone needs no zip64 field.
    private static func readZip64Extent(_ extent: inout EntryExtent, extra: ArraySlice<UInt8>,
                                        fail: (String) -> DecodeError) throws {
        let needsUncompressed = extent.uncompressedSize == 0xFFFF_FFFF
        let needsCompressed = extent.compressedSize == 0xFFFF_FFFF
        let needsOffset = extent.localOffset == 0xFFFF_FFFF
        guard let zip64 = zip64Field(in: extra) else {
            if extent.isSaturated { throw fail("has saturated sizes but no zip64 extra field") }
            return
        }
        var fields = ByteReader(zip64)
        func replace(_ field: inout UInt64, if saturated: Bool, _ what: String) throws {
            guard saturated else { return }
            guard let value = try? fields.readUInt64(.littleEndian) else { throw fail("lacks its zip64 \(what)") }
            field = value
        }
        try replace(&extent.uncompressedSize, if: needsUncompressed, "uncompressed size")
        try replace(&extent.compressedSize, if: needsCompressed, "compressed size")
        try replace(&extent.localOffset, if: needsOffset, "local header offset")
    }

    /// The data of the first zip64 extended-information field (id 0x0001), if the extra block has one.
    /// A malformed extra block ends the search rather than failing.
    private static func zip64Field(in extra: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var reader = ByteReader(extra)
        while let id = try? reader.readUInt16(.littleEndian), let size = try? reader.readUInt16(.littleEndian) {
            guard let data = try? reader.readBytes(Int(size)) else { return nil }
            if id == 0x0001 { return data }
        }
        return nil
    }

    /// The end of central directory record (APPNOTE 4.3.16), or the zip64 one (4.3.14) when a zip64
    /// locator stands right before it.
    private static func findEndRecord(_ file: ZipFile) throws -> EndRecord {
        guard file.size > 0 else { throw DecodeError(.empty, "the file is empty") }
        guard file.size >= eocdSize else {
            throw DecodeError(.malformedZip, "the file is too short (\(file.size) bytes) to be a zip archive")
        }
        let tailLength = min(file.size, eocdSize + maxCommentLength)
        let tailStart = file.size - tailLength
        let tail = try file.read(at: tailStart, count: Int(tailLength))
        let found = try locateEndRecord(in: tail)
        let record = tail[found..<(found + Int(eocdSize))]
        let eocdOffset = tailStart + UInt64(found)
        if let end64 = try readZip64EndRecord(file, eocdOffset: eocdOffset) { return end64 }
        // Without a zip64 locator, saturated fields are taken at face value (an archive may really
        // hold 65,535 entries); the checks on the central directory catch inconsistent ones.
        let saturated = record.u16(8) == 0xFFFF || record.u16(10) == 0xFFFF
            || record.u32(12) == 0xFFFF_FFFF || record.u32(16) == 0xFFFF_FFFF
        let diskNumber = record.u16(4)
        let directoryDisk = record.u16(6)
        if !saturated && (diskNumber != 0 || directoryDisk != 0) {
            throw DecodeError(.malformedZip, "multi-disk zip archives are not supported")
        }
        return EndRecord(
            entryCount: UInt64(record.u16(10)),
            directorySize: UInt64(record.u32(12)),
            directoryOffset: UInt64(record.u32(16)),
            endRecordsOffset: eocdOffset)
    }

    /// Where the end record starts in `tail` (the file's last bytes, up to a record and the longest
    /// comment): the signature searched backwards, preferring a record whose comment ends exactly at
    /// the end of the file (a signature inside a comment rarely satisfies that), then accepting
    /// trailing bytes.
    private static func locateEndRecord(in tail: [UInt8]) throws -> Int {
        func commentEnd(_ candidate: Int) -> Int {
            candidate + Int(eocdSize) + Int(tail[tail.startIndex...].u16(candidate + 20))
        }
        // From the end backwards: the first record whose comment ends the file is the answer, and
        // in an archive without a comment it is the record's own size from the end, so the rest of
        // the tail is not scanned. Else the record nearest the end whose comment fits.
        var fallback: Int?
        var index = tail.count - Int(eocdSize)
        while index >= 0 {
            if tail[index] == 0x50, tail[index + 1] == 0x4B, tail[index + 2] == 0x05, tail[index + 3] == 0x06 {
                let end = commentEnd(index)
                if end == tail.count { return index }
                if fallback == nil && end <= tail.count { fallback = index }
            }
            index -= 1
        }
        guard let fallback else {
            throw DecodeError(.malformedZip, "no end-of-central-directory record (not a zip archive, or truncated)")
        }
        return fallback
    }

    /// The zip64 end record, when a zip64 locator (APPNOTE 4.3.15) stands right before the end record
    /// at `eocdOffset` and points at it; nil when there is no locator.
    private static func readZip64EndRecord(_ file: ZipFile, eocdOffset: UInt64) throws -> EndRecord? {
        guard eocdOffset >= locatorSize else { return nil }
        let locatorOffset = eocdOffset - locatorSize
        let locator = try file.read(at: locatorOffset, count: Int(locatorSize))[...]
        guard locator.u32(0) == 0x0706_4B50 else { return nil }
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
        return EndRecord(
            entryCount: record64.u64(32),
            directorySize: record64.u64(40),
            directoryOffset: record64.u64(48),
            endRecordsOffset: recordOffset)
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
                output = try Zlib.inflate(.raw, compressedSize: entry.compressedSize,
                                          maxOutput: entry.uncompressedSize) { offset, count in
                    try file.read(at: dataOffset + offset, count: count)
                }.output
            } catch let error as Zlib.Error {
                throw DecodeError(.malformedZip, "\(entry.name): \(error)")
            } catch var error as DecodeError {
                error.reason = "\(entry.name): \(error.reason)"
                throw error
            }
            guard UInt64(output.count) == entry.uncompressedSize else {
                throw DecodeError(.malformedZip,
                                  "\(entry.name): inflates to \(output.count) bytes, not the declared \(entry.uncompressedSize)")
            }
        }
        let crc = Zlib.crc32(output)
        guard crc == entry.crc32 else {
            throw DecodeError(.malformedZip,
                              "\(entry.name): CRC-32 mismatch (computed \(hex(crc)), declared \(hex(entry.crc32)))")
        }
        return output
    }

    /// Random access to one entry's bytes without reading it whole: a window of the archive for a
    /// stored entry, a forward-inflating reader for a deflated one (see ``InflatingRangeReader``).
    /// Checks what ``contents(of:limit:)`` checks before reading (method, encryption, local header,
    /// data inside the file), except the CRC-32, which needs every byte. Errors name the archive.
    package func rangeReader(of entry: ZipEntry) throws -> any RangeReader {
        do {
            guard !entry.isEncrypted else { throw DecodeError(.malformedZip, "\(entry.name) is encrypted") }
            guard entry.method == 0 || entry.method == 8 else {
                throw DecodeError(.malformedZip,
                                  "\(entry.name) uses compression method \(entry.method); only stored (0) and deflated (8) are supported")
            }
            let file: any RangeReader = try bytes.map { MemoryRangeReader($0) } ?? FileRangeReader(path: path)
            let headerOffset = entry.localHeaderOffset
            guard file.contains(offset: headerOffset, count: 30) else {
                throw DecodeError(.malformedZip, "\(entry.name): local header offset \(headerOffset) is past the end of the file")
            }
            let header = try file.read(at: headerOffset, count: 30)[...]
            guard header.u32(0) == 0x0403_4B50 else {
                throw DecodeError(.malformedZip, "\(entry.name): bad local header signature", offset: Int(exactly: headerOffset))
            }
            let dataOffset = headerOffset + 30 + UInt64(header.u16(26)) + UInt64(header.u16(28))
            guard file.contains(offset: dataOffset, count: entry.compressedSize) else {
                throw DecodeError(.malformedZip, "\(entry.name): \(entry.compressedSize) bytes of data do not fit in the file",
                                  offset: Int(exactly: headerOffset))
            }
            let data = SliceRangeReader(file, start: dataOffset, size: entry.compressedSize)
            if entry.method == 0 {
                guard entry.compressedSize == entry.uncompressedSize else {
                    throw DecodeError(.malformedZip,
                                      "\(entry.name): stored entry has compressed size \(entry.compressedSize) but uncompressed size \(entry.uncompressedSize)")
                }
                return data
            }
            return InflatingRangeReader(compressed: data, size: entry.uncompressedSize)
        } catch let error as DecodeError {
            throw error.at(path: path)
        }
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
