import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

/// Issue 53 §1: the crash reports `Fixtures/scripts/make_crash_reports.py` writes for the fixture
/// builds, read in both of Apple's formats; their main image's UUID is the fixture binary's.
@Suite struct CrashReportTests {
    static let folder = TestPaths.fixtures + "/crash/"

    static func read(_ name: String) throws -> CrashReport {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: folder + name)))
        return try CrashReport(bytes: bytes, path: folder + name)
    }

    static func uuid(_ binary: String, arch: String = "arm64") throws -> String? {
        try MachOFile(contentsOf: URL(fileURLWithPath: TestPaths.fixtures + "/codesign/" + binary), trust: nil)
            .slices.first { $0.architecture == arch }?.uuid
    }

    @Test func anIPSReport() throws {
        let report = try Self.read("signed.ips")
        #expect(report.format == .ips)
        #expect(report.process == "Signed" && report.bundleID == "com.example.app")
        #expect(report.shortVersion == "9.0" && report.build == "900")
        #expect(report.incidentID == "7D3C1A2B-1111-4222-8333-444455556666")
        #expect(report.osVersion == "iPhone OS 16.1 (20B82)" && report.hardwareModel == "iPhone14,5")
        #expect(report.crashedAt == ISO8601.parse("2026-11-20T09:46:10Z"))
        let main = try #require(report.mainImage)
        #expect(try main.uuid == (try Self.uuid("Signed.app/Signed")) && main.name == "Signed" && main.arch == "arm64")
        #expect(try report.images.count == 3 && report.images[1].uuid == (try Self.uuid("Signed.app/PlugIns/Widget.appex/Widget")))
        let crashed = try #require(report.crashedThread)
        #expect(crashed.index == 0 && crashed.frames.count == 3)
        #expect(crashed.frames[0].imageIndex == 0 && crashed.frames[0].imageOffset == 14756
                && crashed.frames[0].address == (main.loadAddress ?? 0) + 14756)
        #expect(crashed.frames[2].symbol == "__pthread_kill")
    }

    @Test(arguments: [("signed-ios14.crash", "iPhone OS 14.4 (18D52)"), ("signed-ios16.crash", "iOS 16.1 (20B82)")])
    func aTextReportReadsItsVersionByItsSystem(name: String, os: String) throws {
        let report = try Self.read(name)
        #expect(report.format == .crash && report.osVersion == os)
        // iOS 14 wrote `Version: 900 (9.0)`, iOS 16 `9.0 (900)`: the same build either way.
        #expect(report.shortVersion == "9.0" && report.build == "900", "\(name)")
        #expect(report.process == "Signed" && report.bundleID == "com.example.app" && report.codeType == "arm64")
        #expect(try report.mainImage?.uuid == (try Self.uuid("Signed.app/Signed")))
        #expect(report.mainImage?.path?.hasSuffix("Signed.app/Signed") == true)
        #expect(report.crashedThread?.frames.first?.imageOffset == 14756 && report.crashedThread?.frames.first?.imageIndex == 0)
        #expect(report.crashedThread?.frames.last?.symbol == "__pthread_kill + 8")
    }

    @Test func aMacOSTextReportUnderRosetta() throws {
        let report = try Self.read("signed-mac.crash")
        #expect(report.codeType == "x86_64")
        let main = try #require(report.mainImage)
        #expect(main.name == "com.example.mac" && main.arch == "x86_64")
        #expect(try main.uuid == (try Self.uuid("SignedMac.app/Contents/MacOS/SignedMac", arch: "x86_64")), "the x86_64 slice's UUID")
        #expect(report.images.last?.name == "libsystem_kernel.dylib")
        #expect(report.crashedThread?.index == 0 && report.crashedThread?.frames.count == 1)
    }

    @Test func mixedForms() throws {
        let mixed = try Self.read("header-then-text.ips")
        #expect(try mixed.format == .crash && mixed.mainImage?.uuid == (try Self.uuid("Signed.app/Signed")))
        let trailer = try Self.read("trailer.ips")
        #expect(trailer.format == .ips && trailer.images.count == 3)
        let organizer = try Self.read("Signed.xccrashpoint/DistributionInfos/all/Logs/LocalLog_2026-11-20_Signed.crash")
        #expect(organizer.bundleID == "com.example.app")
    }

    @Test(arguments: ["truncated.ips", "truncated.crash", "deep.ips", "bad-image-line.crash"])
    func aBrokenReportIsAnErrorNamingTheFileAndLine(name: String) throws {
        let path = Self.folder + "malformed/" + name
        do {
            _ = try CrashReport(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))), path: path)
            Issue.record("\(name) was read")
        } catch let error as DecodeError {
            #expect(error.kind == .malformedCrashReport && error.path == path, "\(error)")
            #expect(error.reason.hasPrefix("line "), "\(error)")
        }
    }

    @Test func versionOrderAndSpellings() {
        #expect(CrashReport.versions("34 (1.2)", os: "iPhone OS 12.1 (16B92)") == ("1.2", "34"))
        #expect(CrashReport.versions("1.2 (34)", os: "iPhone OS 15.0 (19A346)") == ("1.2", "34"))
        #expect(CrashReport.versions("1.2 (34)", os: "macOS 12.1 (21C52)") == ("1.2", "34"))
        #expect(CrashReport.versions("34 (1.2)", os: "Watch OS 7.2 (18S564)") == ("1.2", "34"))
        #expect(CrashReport.versions("??? (???)", os: "iOS 16.0") == (nil, nil))
        #expect(CrashReport.architecture("ARM-64") == "arm64" && CrashReport.architecture("X86-64") == "x86_64")
        #expect(throws: DecodeError.self) { try CrashReport(bytes: [], path: "empty.crash") }
    }
}
