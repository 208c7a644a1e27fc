import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

/// Fixtures come from Fixtures/scripts/make_zips.py; the payload generators below mirror its
/// `noise`, `text_lines` and `pattern` functions.
@Suite(.timeLimit(.minutes(10))) struct ZipArchiveTests {
    static let packageRoot = URL(fileURLWithPath: TestPaths.packageRoot)

    static func fixture(_ name: String) -> String {
        packageRoot.appendingPathComponent("Fixtures/zip/\(name)").path
    }

    // MARK: payloads (same formulas as make_zips.py)

    static func noise(_ count: Int, seed: UInt32) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(state >> 24)
        }
    }

    static func textLines(_ count: Int) -> [UInt8] {
        var out: [UInt8] = []
        for i in 0..<count {
            let number = String(i)
            let padded = String(repeating: "0", count: max(0, 5 - number.count)) + number
            out += Array("line \(padded): the quick brown fox jumps over the lazy dog\n".utf8)
        }
        return out
    }

    static func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8($0 % 251) }
    }

    /// The kind of `DecodeError` thrown by `body`, or nil when it does not throw one.
    static func errorKind(_ body: () throws -> Void) -> DecodeError.Kind? {
        do {
            try body()
            return nil
        } catch let error as DecodeError {
            return error.kind
        } catch {
            return nil
        }
    }

    static func entry(_ archive: ZipArchive, _ name: String) throws -> ZipEntry {
        try #require(archive.entry(named: name), "no entry \(name) in \(archive.path)")
    }

    // MARK: valid archives

    @Test func mixedListsEntriesInOrder() throws {
        let archive = try ZipArchive(path: Self.fixture("mixed.zip"))
        #expect(archive.entries.map(\.name) == [
            "docs/", "docs/readme.txt", "docs/empty.txt", "docs/nested/",
            "docs/nested/deep/path/lines.txt", "noise-deflated.bin", "noise-stored.bin", "pattern.bin",
            "na\u{EF}ve/r\u{E9}sum\u{E9}.txt",
        ])
        #expect(archive.entries.filter(\.isDirectory).map(\.name) == ["docs/", "docs/nested/"])
        #expect(archive.entries.map(\.method) == [0, 0, 0, 0, 8, 8, 0, 8, 8])
        #expect(archive.entries.map(\.uncompressedSize) == [0, 26, 0, 0, 224_000, 100_000, 4096, 65_536, 10])
        let lines = try Self.entry(archive, "docs/nested/deep/path/lines.txt")
        #expect(lines.compressedSize < 20_000)
        #expect(lines.localHeaderOffset == 192)
        #expect(lines.crc32 == Zlib.crc32(Self.textLines(4000)))
    }

    @Test func mixedContents() throws {
        let archive = try ZipArchive(path: Self.fixture("mixed.zip"))
        let limit = 1 << 20
        let expected: [String: [UInt8]] = [
            "docs/": [],
            "docs/readme.txt": Array("hello from a stored entry\n".utf8),
            "docs/empty.txt": [],
            "docs/nested/": [],
            "docs/nested/deep/path/lines.txt": Self.textLines(4000),
            "noise-deflated.bin": Self.noise(100_000, seed: 1),
            "noise-stored.bin": Self.noise(4096, seed: 2),
            "pattern.bin": Self.pattern(65_536),
            "na\u{EF}ve/r\u{E9}sum\u{E9}.txt": Array("caf\u{E9} \u{2615}\n".utf8),
        ]
        for entry in archive.entries {
            let bytes = try archive.contents(of: entry, limit: limit)
            #expect(bytes == expected[entry.name], "\(entry.name)")
        }
        // The declared size is checked against the limit before anything is read.
        let lines = try Self.entry(archive, "docs/nested/deep/path/lines.txt")
        #expect(Self.errorKind { _ = try archive.contents(of: lines, limit: 223_999) } == .tooLarge)
        #expect(try archive.contents(of: lines, limit: 224_000).count == 224_000)
    }

    @Test func zip64RecordsAndExtraFields() throws {
        let archive = try ZipArchive(path: Self.fixture("zip64.zip"))
        #expect(archive.entries.map(\.name) == ["zip64/stored.txt", "zip64/deflated.txt", "zip64/offset-only.bin"])
        #expect(archive.entries.map(\.uncompressedSize) == [26, 16_800, 5000])
        #expect(archive.entries[0].compressedSize == 26)
        #expect(archive.entries[0].localHeaderOffset == 0)
        #expect(archive.entries[2].localHeaderOffset > 0)
        #expect(try archive.contents(of: archive.entries[0], limit: 100) == Array("stored in a zip64 archive\n".utf8))
        #expect(try archive.contents(of: archive.entries[1], limit: 1 << 20) == Self.textLines(300))
        #expect(try archive.contents(of: archive.entries[2], limit: 1 << 20) == Self.pattern(5000))
    }

    @Test func dataDescriptorsUseCentralDirectorySizes() throws {
        let archive = try ZipArchive(path: Self.fixture("descriptor.zip"))
        #expect(archive.entries.map(\.name) == ["streamed/lines.txt", "streamed/pattern.bin"])
        #expect(archive.entries.allSatisfy { $0.flags & 0x8 != 0 })
        #expect(try archive.contents(of: archive.entries[0], limit: 1 << 20) == Self.textLines(500))
        #expect(try archive.contents(of: archive.entries[1], limit: 1 << 20) == Self.pattern(3000))
    }

    @Test func localHeaderLengthsLocateTheData() throws {
        let archive = try ZipArchive(path: Self.fixture("local-mismatch.zip"))
        #expect(archive.entries.map(\.name) == ["short-local-name.txt", "big-local-extra.bin"])
        #expect(try archive.contents(of: archive.entries[0], limit: 1000)
                == Array("the local header names this entry 'x'\n".utf8))
        #expect(try archive.contents(of: archive.entries[1], limit: 1 << 20) == Self.pattern(2000))
    }

    @Test func suspiciousNamesAreOnlyNames() throws {
        let archive = try ZipArchive(path: Self.fixture("dotdot.zip"))
        #expect(archive.entries.map(\.name) == ["../evil", "/abs/path", "a/../../b", "bad-\u{FFFD}.txt"])
        #expect(try archive.contents(of: archive.entries[0], limit: 100) == Array("evil\n".utf8))
        #expect(try archive.contents(of: archive.entries[1], limit: 100) == Array("absolute\n".utf8))
        #expect(try archive.contents(of: archive.entries[3], limit: 100) == Array("invalid utf-8 name\n".utf8))
    }

    @Test func signatureInsideCommentIsSkipped() throws {
        let archive = try ZipArchive(path: Self.fixture("fake-eocd-comment.zip"))
        #expect(archive.entries.map(\.name) == ["real.txt"])
        #expect(try archive.contents(of: archive.entries[0], limit: 100) == Array("real\n".utf8))
    }

    // MARK: hostile and broken archives

    @Test func lyingSizes() throws {
        let archive = try ZipArchive(path: Self.fixture("lying-size.zip"))
        let huge = try Self.entry(archive, "huge.txt")
        #expect(huge.uncompressedSize == 3_000_000_000)
        #expect(Self.errorKind { _ = try archive.contents(of: huge, limit: 10 << 20) } == .tooLarge)
        // With no effective limit, the short stream contradicts the declared size.
        #expect(Self.errorKind { _ = try archive.contents(of: huge, limit: Int.max) } == .malformedZip)
        let understated = try Self.entry(archive, "understated.bin")
        #expect(understated.uncompressedSize == 16)
        #expect(Self.errorKind { _ = try archive.contents(of: understated, limit: 1 << 20) } == .malformedZip)
    }

    @Test func bombIsRefusedBeforeInflating() throws {
        let archive = try ZipArchive(path: Self.fixture("bomb.zip"))
        let zeros = try Self.entry(archive, "zeros.bin")
        #expect(zeros.uncompressedSize == 50 * 1024 * 1024)
        #expect(zeros.compressedSize < 100_000)
        #expect(Self.errorKind { _ = try archive.contents(of: zeros, limit: 10 << 20) } == .tooLarge)
        #expect(try archive.contents(of: archive.entries[1], limit: 100) == Array("not a bomb\n".utf8))

        // Same data, but a central directory that understates the size: inflation stops at the
        // declared size instead of producing 50 MiB.
        let lying = ZipEntry(name: zeros.name, method: 8, compressedSize: zeros.compressedSize,
                             uncompressedSize: 1 << 20, crc32: zeros.crc32,
                             localHeaderOffset: zeros.localHeaderOffset)
        #expect(Self.errorKind { _ = try archive.contents(of: lying, limit: 10 << 20) } == .malformedZip)
    }

    @Test func bombInflatesWhenAllowed() throws {
        let archive = try ZipArchive(path: Self.fixture("bomb.zip"))
        let bytes = try archive.contents(of: try Self.entry(archive, "zeros.bin"), limit: 64 << 20)
        #expect(bytes.count == 50 * 1024 * 1024)
        #expect(bytes.allSatisfy { $0 == 0 })
    }

    @Test func badCRC() throws {
        let archive = try ZipArchive(path: Self.fixture("bad-crc.zip"))
        #expect(try archive.contents(of: try Self.entry(archive, "good.txt"), limit: 100) == Array("good\n".utf8))
        for name in ["bad.txt", "bad-deflated.txt"] {
            let entry = try Self.entry(archive, name)
            #expect(Self.errorKind { _ = try archive.contents(of: entry, limit: 1 << 20) } == .malformedZip, "\(name)")
        }
    }

    @Test func unsupportedMethodAndEncryption() throws {
        let archive = try ZipArchive(path: Self.fixture("mixed.zip"))
        let real = try Self.entry(archive, "docs/readme.txt")
        let lzma = ZipEntry(name: real.name, method: 14, compressedSize: real.compressedSize,
                            uncompressedSize: real.uncompressedSize, crc32: real.crc32,
                            localHeaderOffset: real.localHeaderOffset)
        do {
            _ = try archive.contents(of: lzma, limit: 100)
            Issue.record("method 14 should not be readable")
        } catch let error as DecodeError {
            #expect(error.kind == .malformedZip)
            #expect(error.reason.contains("method 14"))
            #expect(error.path == archive.path)
        }
        let encrypted = ZipEntry(name: real.name, method: 0, compressedSize: real.compressedSize,
                                 uncompressedSize: real.uncompressedSize, crc32: real.crc32,
                                 localHeaderOffset: real.localHeaderOffset, flags: 1)
        #expect(Self.errorKind { _ = try archive.contents(of: encrypted, limit: 100) } == .malformedZip)
    }

    @Test func brokenArchivesThrowWithPath() throws {
        for name in ["truncated-cd.zip", "cd-past-eof.zip"] {
            let path = Self.fixture(name)
            do {
                _ = try ZipArchive(path: path)
                Issue.record("\(name) should not open")
            } catch let error as DecodeError {
                #expect(error.kind == .malformedZip, "\(name): \(error)")
                #expect(error.path == path)
            }
        }
        #expect(Self.errorKind { _ = try ZipArchive(path: Self.fixture("empty.zip")) } == .empty)
        #expect(Self.errorKind { _ = try ZipArchive(path: Self.fixture("does-not-exist.zip")) } == .unreadable)
        #expect(Self.errorKind { _ = try ZipArchive(path: Self.fixture("")) } == .unreadable)  // a directory
    }

    @Test func fifoIsRefusedWithoutBlocking() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("catalog-zip-fifo-\(UUID().uuidString)").path
        try #require(mkfifo(path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(Self.errorKind { _ = try ZipArchive(path: path) } == .unreadable)
    }

    @Test func entryOffsetsPastEndOfFile() throws {
        let archive = try ZipArchive(path: Self.fixture("bad-offsets.zip"))
        #expect(archive.entries.map(\.name) == ["ok.txt", "far.txt", "long.txt"])
        #expect(try archive.contents(of: archive.entries[0], limit: 100) == Array("fine\n".utf8))
        #expect(archive.entries[1].localHeaderOffset == 0x7FFF_FFF0)
        #expect(Self.errorKind { _ = try archive.contents(of: archive.entries[1], limit: 100) } == .malformedZip)
        #expect(archive.entries[2].compressedSize == 0x1000_0000)
        #expect(Self.errorKind { _ = try archive.contents(of: archive.entries[2], limit: Int.max) } == .malformedZip)
    }

    /// Truncations and byte flips of a valid archive must only ever produce errors or data.
    @Test func mutatedArchivesNeverCrash() throws {
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.fixture("zip64.zip"))))
        let scratch = try Scratch()
        let directory = URL(fileURLWithPath: scratch.path, isDirectory: true)

        var variants: [[UInt8]] = []
        for cut in stride(from: 0, to: original.count, by: 37) { variants.append(Array(original[0..<cut])) }
        var state: UInt32 = 12_345
        for _ in 0..<300 {
            var bytes = original
            for _ in 0..<3 {
                state = state &* 1_664_525 &+ 1_013_904_223
                let index = Int(state >> 8) % bytes.count
                state = state &* 1_664_525 &+ 1_013_904_223
                bytes[index] = UInt8(state >> 24)
            }
            variants.append(bytes)
        }
        let file = directory.appendingPathComponent("mutant.zip")
        var opened = 0
        for bytes in variants {
            try Data(bytes).write(to: file)
            guard let archive = try? ZipArchive(path: file.path) else { continue }
            opened += 1
            for entry in archive.entries {
                _ = try? archive.contents(of: entry, limit: 1 << 20)
            }
        }
        #expect(opened > 0)
    }

    // MARK: real corpus

    static func corpusIPAs() -> [String] {
        guard let corpus = TestPaths.realCorpus else { return [] }
        let corpusTree = URL(fileURLWithPath: corpus + "/tree")
        guard let walker = FileManager.default.enumerator(atPath: corpusTree.path) else { return [] }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            if relative.lowercased().hasSuffix(".ipa") {
                found.append(corpusTree.appendingPathComponent(relative).path)
            }
        }
        return found.sorted()
    }

    @Test(.enabled(if: TestPaths.realCorpus != nil, Comment(rawValue: TestPaths.realCorpusAbsent)))
    func realCorpusIPAs() throws {
        let ipas = Self.corpusIPAs()
        #expect(!ipas.isEmpty, "the corpus has .ipa files")
        for path in ipas {
            let archive = try ZipArchive(path: path)
            #expect(!archive.entries.isEmpty, "\(path)")
            // The app is the shortest Payload/X.app/ prefix.
            let apps = Set(archive.entries.compactMap { entry -> String? in
                let parts = entry.name.split(separator: "/", omittingEmptySubsequences: false)
                guard parts.count >= 3, parts[0] == "Payload", parts[1].hasSuffix(".app") else { return nil }
                return "Payload/\(parts[1])/"
            })
            let app = try #require(apps.min { $0.count < $1.count }, "no Payload/*.app in \(path)")
            let plist = try archive.contents(of: try Self.entry(archive, app + "Info.plist"), limit: 10 << 20)
            #expect(plist.starts(with: Array("bplist".utf8)) || plist.starts(with: Array("<?xml".utf8)), "\(path)")
            if let profile = archive.entry(named: app + "embedded.mobileprovision") {
                let bytes = try archive.contents(of: profile, limit: 10 << 20)
                #expect(bytes.first == 0x30, "\(path)")
            }
            // Every file entry inflates with a matching CRC.
            for entry in archive.entries where !entry.isDirectory {
                let bytes = try archive.contents(of: entry, limit: 64 << 20)
                #expect(UInt64(bytes.count) == entry.uncompressedSize, "\(entry.name)")
            }
        }
    }
}

// MARK: - Overlapping entries

extension ZipArchiveTests {
    /// 200 central-directory entries share one deflated MiB of zeros: each read is bounded by its
    /// limit, and an .ipa reader only ever inflates the two entries it needs.
    @Test func overlappingEntriesAreReadOnlyWithinTheirLimit() throws {
        let archive = try ZipArchive(path: Self.fixture("overlap.zip"))
        #expect(archive.entries.count == 200)
        #expect(Set(archive.entries.map(\.localHeaderOffset)) == [0])
        let first = try archive.contents(of: archive.entries[0], limit: 2 << 20)
        #expect(first.count == 1 << 20 && first.allSatisfy { $0 == 0 })
        #expect(throws: DecodeError.self) { try archive.contents(of: archive.entries[1], limit: 512 << 10) }
        do {
            _ = try IPAReader.read(Self.fixture("overlap.zip"))
            Issue.record("an Info.plist of zeros decoded")
        } catch let error as DecodeError {
            #expect(error.path?.hasSuffix("overlap.zip!Payload/Overlap.app/Info.plist") == true)
        }
    }
}
