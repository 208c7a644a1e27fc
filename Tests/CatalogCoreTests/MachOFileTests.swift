import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

/// The Mach-O reader against `Fixtures/codesign/`: every binary as `Fixtures/expected.json` lists it
/// (computed with struct, hashlib and `openssl cms -verify`, no code shared with the generator),
/// and the malformed ones failing with their kind.
@Suite struct MachOFileTests {
    static let macho = TestPaths.fixtures + "/codesign/macho"

    static func expectedBinaries() throws -> [[String: Any]] {
        try TestPaths.expected(at: TestPaths.fixtures + "/expected.json")["binaries"] as? [[String: Any]] ?? []
    }

    /// Reads a file, or an `.ipa` member named `X.ipa!member`, through the same range readers builds use.
    static func decode(_ relative: String) throws -> MachOFile {
        let parts = relative.split(separator: "!", maxSplits: 1).map(String.init)
        let path = TestPaths.packageRoot + "/" + parts[0]
        guard parts.count == 2 else { return try MachOFile(reader: FileRangeReader(path: path), path: path) }
        let archive = try ZipArchive(path: path)
        let entry = try #require(archive.entry(named: parts[1]))
        return try MachOFile(reader: archive.rangeReader(of: entry), path: relative)
    }

    // MARK: Conformance

    @Test func everyBinaryMatchesExpected() throws {
        let expected = try Self.expectedBinaries()
        #expect(expected.count >= 30)
        for entry in expected {
            let path = entry["path"] as? String ?? ""
            let file = try Self.decode(path)
            #expect(file.layout.rawValue == entry["layout"] as? String, "\(path)")
            let slices = entry["slices"] as? [[String: Any]] ?? []
            #expect(file.slices.count == slices.count, "\(path)")
            for (slice, want) in zip(file.slices, slices) {
                #expect(slice.architecture == want["arch"] as? String, "\(path)")
                #expect(slice.uuid == want["uuid"] as? String, "\(path)")
                #expect(slice.platform?.name == want["platform"] as? String, "\(path)")
                #expect(slice.minimumOS == want["minimum_os"] as? String, "\(path)")
                #expect(slice.sdk == want["sdk"] as? String, "\(path)")
                #expect(Int(slice.fileType) == want["file_type"] as? Int, "\(path)")
                #expect(slice.codeSignatureError == nil, "\(path): \(String(describing: slice.codeSignatureError))")
                guard let signature = want["code_signature"] as? [String: Any] else {
                    #expect(!slice.isSigned, "\(path)")
                    continue
                }
                let decoded = try #require(slice.codeSignature, "\(path)")
                #expect(decoded.cdhash == signature["cdhash"] as? String, "\(path)")
                #expect(decoded.identifier == signature["identifier"] as? String, "\(path)")
                #expect(decoded.codeDirectory?.teamID == signature["team_id"] as? String, "\(path)")
                #expect(decoded.signingCertificate?.sha1 == signature["certificate_sha1"] as? String, "\(path)")
                #expect(decoded.signingCertificate?.commonName == signature["certificate_name"] as? String, "\(path)")
                #expect(decoded.entitlements?.keys.sorted() == signature["entitlement_keys"] as? [String], "\(path)")
                #expect((decoded.derEntitlements != nil) == (signature["has_der_entitlements"] as? Bool), "\(path)")
                let directories = signature["code_directories"] as? [[String: Any]] ?? []
                #expect(decoded.codeDirectories.map(\.hashType.name) == directories.map { $0["hash_type"] as? String ?? "" }, "\(path)")
                #expect(decoded.codeDirectories.map(\.cdhash) == directories.map { $0["cdhash"] as? String }, "\(path)")
            }
        }
    }

    @Test func bytesInMemoryReadAsTheFileDoes() throws {
        for name in ["thin-arm64", "fat-arm64-x86_64", "fat64-arm64-arm64e", "thin-armv7", "ppc-bigendian"] {
            let path = Self.macho + "/" + name
            let fromFile = try MachOFile(contentsOf: URL(fileURLWithPath: path))
            let fromBytes = try MachOFile(bytes: Data(contentsOf: URL(fileURLWithPath: path)), path: path)
            #expect(fromFile == fromBytes, "\(name)")
        }
    }

    // MARK: Headers

    @Test func fatHeadersBothWidthsAndBothByteOrders() throws {
        let fat = try MachOFile(contentsOf: URL(fileURLWithPath: Self.macho + "/fat-arm64-x86_64"))
        #expect(fat.layout == .fat)
        #expect(fat.slices.map(\.architecture) == ["arm64", "x86_64"])
        #expect(fat.slices.map(\.offset) == [16384, 65536])
        #expect(fat.slices.allSatisfy { $0.platform == .macOS && $0.is64Bit && !$0.isBigEndian })

        let fat64 = try MachOFile(contentsOf: URL(fileURLWithPath: Self.macho + "/fat64-arm64-arm64e"))
        #expect(fat64.layout == .fat64)
        #expect(fat64.slices.map(\.architecture) == ["arm64", "arm64e"])
        #expect(fat64.slices[1].cpuSubtype == 0x8000_0002, "the capability bits are kept, and ignored for the name")

        let armv7 = try MachOFile(contentsOf: URL(fileURLWithPath: Self.macho + "/thin-armv7"))
        #expect(armv7.slices.map(\.architecture) == ["armv7"])
        #expect(!armv7.slices[0].is64Bit)
        #expect(armv7.slices[0].platform == .iOS, "from LC_VERSION_MIN_IPHONEOS")
        #expect(armv7.slices[0].minimumOS == "9.0")

        let ppc = try MachOFile(contentsOf: URL(fileURLWithPath: Self.macho + "/ppc-bigendian"))
        #expect(ppc.slices[0].isBigEndian)
        #expect(ppc.slices[0].architecture == "ppc")
        #expect(ppc.slices[0].platform == .macOS)
        #expect(ppc.slices[0].uuid != nil)

        let dsym = try MachOFile(contentsOf: URL(fileURLWithPath: Self.macho + "/dsym-arm64"))
        let thin = try MachOFile(contentsOf: URL(fileURLWithPath: Self.macho + "/thin-arm64"))
        #expect(dsym.slices[0].fileType == MachOSlice.debugSymbolsFileType)
        #expect(dsym.slices[0].uuid == thin.slices[0].uuid, "a dSYM carries its binary's UUID")
    }

    @Test func architectureNames() {
        let cases: [(UInt32, UInt32, String)] = [
            (0x0100_000C, 0, "arm64"), (0x0100_000C, 0x8000_0002, "arm64e"), (0x0100_0007, 3, "x86_64"),
            (0x0100_0007, 8, "x86_64h"), (7, 3, "i386"), (12, 9, "armv7"), (12, 11, "armv7s"), (12, 12, "armv7k"),
            (0x0200_000C, 1, "arm64_32"), (18, 0, "ppc"), (0x1234, 5, "cpu-0x1234-5"),
        ]
        for (type, subtype, name) in cases {
            #expect(MachOArchitecture.name(cpuType: type, cpuSubtype: subtype) == name)
        }
        #expect(MachOPlatform(rawValue: 7).isSimulator)
        #expect(MachOPlatform(rawValue: 99).name == "platform 99")
        #expect(MachOFile.formatVersion(0x000D_0201) == "13.2.1")
    }

    @Test func uuidsAsPeopleWriteThem() {
        let canonical = "6D254A2F-0A5E-3FAF-8E04-99D099B16B6C"
        // Issue 53 §3: also as a `.crash` file's Binary Images write it, in angle brackets.
        for typed in [canonical, canonical.lowercased(), "6d254a2f0a5e3faf8e0499d099b16b6c", "6D254A2F0A5E-3FAF-8E0499D099B16B6C",
                      "<6d254a2f0a5e3faf8e0499d099b16b6c>", "<6D254A2F-0A5E-3FAF-8E04-99D099B16B6C>"] {
            #expect(MachOFile.canonicalUUID(typed) == canonical, "\(typed)")
        }
        for wrong in ["", "6D254A2F", canonical + "0", "6D254A2F-0A5E-3FAF-8E04-99D099B16B6G", "{6D254A2F-0A5E-3FAF-8E04-99D099B16B6C}",
                      "<6d254a2f0a5e3faf8e0499d099b16b6c", "<<6d254a2f0a5e3faf8e0499d099b16b6c>>"] {
            #expect(MachOFile.canonicalUUID(wrong) == nil, "\(wrong)")
        }
    }

    @Test func theMagicNumbersAreRecognised() throws {
        for name in ["thin-arm64", "fat-arm64-x86_64", "fat64-arm64-arm64e", "thin-armv7", "ppc-bigendian"] {
            #expect(MachOFile.hasMagic(try FileBytes.prefix(Self.macho + "/" + name, count: 4)), "\(name)")
        }
        #expect(!MachOFile.hasMagic(try FileBytes.prefix(Self.macho + "/malformed/not-macho", count: 4)))
        #expect(!MachOFile.hasMagic([0xCF, 0xFA]))
    }

    // MARK: Malformed

    /// Headers and load commands that lie fail the file; a signature that lies fails only the
    /// signature, and the slice keeps its UUID.
    @Test(arguments: [
        ("truncated-header", DecodeError.Kind.malformedMachO), ("load-commands-past-end", .malformedMachO),
        ("fat-slice-outside", .malformedMachO), ("not-macho", .unrecognized),
    ])
    func malformedFilesFailWithTheirKind(name: String, kind: DecodeError.Kind) throws {
        let path = Self.macho + "/malformed/" + name
        do {
            _ = try MachOFile(contentsOf: URL(fileURLWithPath: path))
            Issue.record("\(name) decoded")
        } catch let error as DecodeError {
            #expect(error.kind == kind, "\(name): \(error)")
            #expect(error.path == path)
        }
    }

    @Test(arguments: [
        ("signature-past-end", DecodeError.Kind.malformedMachO, "runs past the end of the slice"),
        ("duplicate-slot", .malformedMachO, "appears twice"),
    ])
    func malformedSignaturesFailOnlyTheSignature(name: String, kind: DecodeError.Kind, reason: String) throws {
        let path = Self.macho + "/malformed/" + name
        let file = try MachOFile(contentsOf: URL(fileURLWithPath: path))
        let slice = try #require(file.slices.first)
        #expect(slice.uuid == "8AD76CE2-DD8E-C6B4-8138-1953064BB354", "the UUID survives a broken signature")
        #expect(slice.isSigned)
        #expect(slice.codeSignature == nil)
        let error = try #require(slice.codeSignatureError)
        #expect(error.kind == kind, "\(name): \(error)")
        #expect(error.reason.contains(reason), "\(name): \(error)")
        #expect(error.path == path)
    }

    /// Issue 51 §1: a CMS blob that cannot be read loses only itself: the CodeDirectories,
    /// identifier, team, cdhash and entitlements are still reported, the CMS as unreadable.
    @Test func anUnreadableCMSBlobLosesOnlyTheSigner() throws {
        let path = Self.macho + "/malformed/cms-garbage"
        let slice = try #require(try MachOFile(contentsOf: URL(fileURLWithPath: path)).slices.first)
        #expect(slice.codeSignatureError == nil)
        let signature = try #require(slice.codeSignature)
        #expect(signature.identifier == "com.example.thin" && signature.teamID == "TEAM123456" && signature.cdhash != nil)
        #expect(signature.entitlements != nil && signature.derEntitlements != nil)
        #expect(signature.signingCertificate == nil)
        #expect(signature.findings.map(\.code) == [.signatureUnreadable])
        #expect(signature.findings.first?.message.hasPrefix("CMS signature:") == true, "\(signature.findings)")
    }

    @Test func emptyAndShortInputs() {
        #expect(throws: DecodeError.self) { try MachOFile(bytes: [], path: "empty") }
        #expect(throws: DecodeError.self) { try MachOFile(bytes: [0xCF, 0xFA, 0xED], path: "short") }
        #expect(throws: DecodeError.self) { try MachOFile(bytes: [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 0], path: "no slices") }
        // A fat header claiming more architectures than the file holds.
        #expect(throws: DecodeError.self) { try MachOFile(bytes: [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 3] + [UInt8](repeating: 0, count: 30), path: "x") }
    }

    /// Every prefix of a real binary ends in a value or a `DecodeError`, never a trap.
    @Test func everyTruncationIsAnErrorOrAValue() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.macho + "/fat-arm64-x86_64")))
        var values = 0
        for length in stride(from: 0, to: bytes.count, by: 97) {
            if (try? MachOFile(bytes: bytes[..<length], path: "cut")) != nil { values += 1 }
        }
        #expect(values == 0, "a truncated fat file lacks its last slice")
    }

    // MARK: Range reading

    /// A deflated entry read out of order restarts its stream and still returns the right bytes.
    @Test func inflatingReaderServesRangesInAnyOrder() throws {
        let archive = try ZipArchive(path: TestPaths.fixtures + "/codesign/Signed.ipa")
        let entry = try #require(archive.entry(named: "Payload/Signed.app/Signed"))
        #expect(entry.method == 8)
        let whole = try archive.contents(of: entry, limit: 1 << 24)
        let reader = try archive.rangeReader(of: entry)
        #expect(reader.size == UInt64(whole.count))
        for (offset, count) in [(16000, 500), (0, 32), (20000, 100), (5, 20000), (UInt64(whole.count) - 10, 10)] as [(UInt64, Int)] {
            #expect(try reader.read(at: offset, count: count) == Array(whole[Int(offset)..<Int(offset) + count]))
        }
        #expect(throws: DecodeError.self) { try reader.read(at: UInt64(whole.count) - 5, count: 10) }
        let stored = try #require(archive.entry(named: "Payload/Signed.app/Frameworks/ExampleKit.framework/ExampleKit"))
        #expect(stored.method == 0)
        let storedReader = try archive.rangeReader(of: stored)
        #expect(try storedReader.read(at: 0, count: 4) == [0xCF, 0xFA, 0xED, 0xFE])
    }
}
