import Foundation

/// Checks a slice's code against the code slots of its CodeDirectories, as the kernel does page by
/// page when the code runs: slot i is the hash of bytes [i·pageSize, min((i+1)·pageSize, codeLimit))
/// from the slice's start, with the CodeDirectory's own hash type.
enum CodePageCheck {
    /// False when the environment says `CATALOG_VERIFY_INTEGRITY=0`: pages and resources are not
    /// hashed, and every bundle says so in a `signature-unreadable` problem (an escape hatch, and
    /// how the benchmark measures what the hashing costs).
    static let enabled = ProcessInfo.processInfo.environment["CATALOG_VERIFY_INTEGRITY"] != "0"

    /// Bytes read at a time: whole pages, large enough that a read costs little.
    static let chunkSize = 1 << 20
    /// Largest "single page" (page size 0: the whole code is one page) hashed from memory.
    static let maximumSinglePage: UInt64 = 64 << 20

    /// The `code-modified` findings of the slice of `sliceSize` bytes at `sliceOffset`: for each
    /// CodeDirectory whose code does not match, the first page that differs; reported once, on the
    /// earliest such page. A read that fails is `signature-unreadable`.
    static func findings(_ reader: any RangeReader, sliceOffset: UInt64, sliceSize: UInt64, architecture: String,
                         directories: [(directory: CodeDirectory, blob: ArraySlice<UInt8>)]) -> [SignatureFinding] {
        guard enabled else { return [] }
        var findings: [SignatureFinding] = []
        var firstBad: [(page: UInt64, directory: String)] = []
        // Directories with the same pages (every real signature) share one read of the code.
        var groups: [(pageSize: UInt64, limit: UInt64, members: [(directory: CodeDirectory, blob: ArraySlice<UInt8>)])] = []
        for entry in directories {
            let directory = entry.directory
            let name = "the \(directory.hashType.name) CodeDirectory"
            guard directory.hashType.algorithm != nil else {
                findings.append(SignatureFinding(.signatureUnreadable, "\(name) of the \(architecture) slice: its hash type is not supported"))
                continue
            }
            guard directory.codeLimit <= sliceSize else {
                findings.append(SignatureFinding(.codeModified, "\(name) of the \(architecture) slice covers \(directory.codeLimit) "
                                                 + "bytes; the slice has \(sliceSize)"))
                continue
            }
            guard directory.pageSizeLog2 < 32, directory.pageSizeLog2 > 0 || directory.codeLimit <= maximumSinglePage else {
                findings.append(SignatureFinding(.signatureUnreadable, "\(name) of the \(architecture) slice: a page of 2^"
                                                 + "\(directory.pageSizeLog2) bytes is not checked"))
                continue
            }
            let pageSize = directory.pageSizeLog2 == 0 ? max(directory.codeLimit, 1) : UInt64(1) << directory.pageSizeLog2
            let pages = (directory.codeLimit + pageSize - 1) / pageSize
            guard UInt64(directory.codeSlotCount) == pages else {
                findings.append(SignatureFinding(.codeModified, "\(name) of the \(architecture) slice has \(directory.codeSlotCount) "
                                                 + "code slots for the \(pages) pages of its \(directory.codeLimit) bytes"))
                continue
            }
            if let index = groups.firstIndex(where: { $0.pageSize == pageSize && $0.limit == directory.codeLimit }) {
                groups[index].members.append(entry)
            } else {
                groups.append((pageSize, directory.codeLimit, [entry]))
            }
        }
        for group in groups {
            var pending = Array(group.members.indices)
            let perRead = max(group.pageSize, UInt64(chunkSize) / group.pageSize * group.pageSize)
            var start: UInt64 = 0
            while start < group.limit, !pending.isEmpty {
                let count = Int(min(perRead, group.limit - start))
                let chunk: [UInt8]
                do {
                    chunk = try reader.read(at: sliceOffset + start, count: count)
                } catch {
                    findings.append(SignatureFinding(.signatureUnreadable, "the code of the \(architecture) slice could not be "
                                                     + "read at \(start): \((error as? DecodeError)?.reason ?? "\(error)")"))
                    return findings
                }
                var pageStart = 0
                while pageStart < chunk.count, !pending.isEmpty {
                    let page = chunk[pageStart..<min(pageStart + Int(group.pageSize), chunk.count)]
                    let index = (start + UInt64(pageStart)) / group.pageSize
                    pending.removeAll { member in
                        let (directory, blob) = group.members[member]
                        let at = blob.startIndex + Int(directory.hashOffset) + Int(index) * Int(directory.hashSize)
                        guard let actual = directory.slotHash(page), at + Int(directory.hashSize) <= blob.endIndex,
                              actual.elementsEqual(blob[at..<at + Int(directory.hashSize)]) else {
                            firstBad.append((index, directory.hashType.name))
                            return true
                        }
                        return false
                    }
                    pageStart += Int(group.pageSize)
                }
                start += UInt64(count)
            }
        }
        if let earliest = firstBad.map(\.page).min() {
            let names = firstBad.filter { $0.page == earliest }.map(\.directory)
            let pageSize = groups.first.map(\.pageSize) ?? 0
            let which = names.count == 1 ? "the \(names[0]) CodeDirectory's hash" : "the \(names.joined(separator: " and ")) CodeDirectories' hashes"
            findings.append(SignatureFinding(.codeModified, "page \(earliest) (from byte \(earliest * pageSize)) of the "
                                             + "\(architecture) slice does not match \(which) of it"))
        }
        return findings
    }
}
