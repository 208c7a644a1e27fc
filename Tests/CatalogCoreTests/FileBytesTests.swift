import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

/// Issue 9 §5: every input file is opened through one regular-file reader that uses `O_NONBLOCK`
/// and refuses anything but a regular file, so a FIFO named like a profile cannot hang a run.
@Suite(.timeLimit(.minutes(10))) struct FileBytesTests {
    /// A FIFO in a fresh folder, named `name`.
    private func fifo(_ name: String) throws -> (folder: String, path: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-fifo-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + name
        try #require(mkfifo(path, 0o600) == 0)
        return (folder, path)
    }

    /// Runs `body`; should it block opening the FIFO (the bug), a writer opens and closes the FIFO
    /// every half second from 3 s on to release each blocked open, so the test fails on time
    /// instead of hanging.
    private func timed(_ path: String, _ body: () throws -> Void) -> (seconds: Double, error: (any Error)?) {
        let finished = Flag()
        let releaser = Thread {
            Thread.sleep(forTimeInterval: 3)
            while !finished.isSet {
                let fd = open(path, O_WRONLY | O_NONBLOCK)  // ENXIO (harmless) unless a reader is waiting
                if fd >= 0 { close(fd) }
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
        releaser.start()
        defer { finished.set() }
        let started = Date()
        do {
            try body()
            return (Date().timeIntervalSince(started), nil)
        } catch {
            return (Date().timeIntervalSince(started), error)
        }
    }

    private func expectRefused(_ result: (seconds: Double, error: (any Error)?), _ label: String) {
        #expect(result.seconds < 2, "\(label) waited \(result.seconds) s for a writer")
        let error = result.error as? DecodeError
        #expect(error?.kind == .unreadable, "\(label): \(String(describing: result.error))")
        #expect(error?.reason.contains("not a regular file (a FIFO)") == true, "\(label): \(String(describing: error))")
    }

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let (folder, path) = try fifo("x.mobileprovision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        expectRefused(timed(path) { _ = try FileBytes.read(path, limit: 1 << 20) }, "FileBytes.read")
        expectRefused(timed(path) { _ = try FileBytes.prefix(path, count: 4) }, "FileBytes.prefix")
        expectRefused(timed(path) { _ = try FileBytes.openRegularFile(path) }, "openRegularFile")
        expectRefused(timed(path) { _ = try FileDecoder.decode(path: path) }, "FileDecoder.decode")
        #expect(!FileDecoder.isZip(path))
    }

    @Test func aFIFONamedLikeAnIPAIsRefusedWithoutWaitingForAWriter() throws {
        let (folder, path) = try fifo("x.ipa")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        expectRefused(timed(path) { _ = try ZipArchive(path: path) }, "ZipArchive")
        expectRefused(timed(path) { _ = try IPAReader.read(path) }, "IPAReader")
    }

    /// A `.app` whose Info.plist and embedded profile are FIFOs is not a bundle, and is said so at once.
    @Test func anAppWhoseFilesAreFIFOsDoesNotHang() throws {
        let (folder, _) = try fifo("placeholder")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let app = folder + "/X.app"
        try FileManager.default.createDirectory(atPath: app, withIntermediateDirectories: false)
        try #require(mkfifo(app + "/Info.plist", 0o600) == 0)
        try #require(mkfifo(app + "/embedded.mobileprovision", 0o600) == 0)
        let result = timed(app + "/Info.plist") { _ = try FileDecoder.decode(path: app) }
        #expect(result.seconds < 2)
        #expect((result.error as? DecodeError)?.kind == .invalidBundle, "\(String(describing: result.error))")
    }

    @Test func aRegularFileReadsWholeAndItsPrefix() throws {
        let scratch = try Scratch()
        let folder = scratch.path
        let path = folder + "/f"
        try Data([1, 2, 3, 4, 5]).write(to: URL(fileURLWithPath: path))
        #expect(try FileBytes.read(path, limit: 5) == [1, 2, 3, 4, 5])
        #expect(try FileBytes.prefix(path, count: 3) == [1, 2, 3])
        #expect(try FileBytes.prefix(path, count: 9) == [1, 2, 3, 4, 5])
        #expect((try? FileBytes.read(path, limit: 4)) == nil)
        #expect(throws: DecodeError.self) { try FileBytes.read(folder, limit: 10) }  // a folder
    }
}

/// A flag one thread sets and another reads.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
