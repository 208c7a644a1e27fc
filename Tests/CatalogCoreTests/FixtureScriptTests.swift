import Foundation
import Testing
import CatalogTestSupport

/// Issue 17: `Fixtures/generate.sh` needs OpenSSL 3; macOS ships LibreSSL as `openssl`. The script
/// says so up front and stops before deleting anything. Run on a copy of the script beside a
/// sentinel file, with a stand-in `openssl` first on PATH.
@Suite(.timeLimit(.minutes(10))) struct FixtureScriptTests {
    private func run(withOpenSSLPrinting version: String?) throws -> (status: Int32, stderr: String, sentinelKept: Bool) {
        let temporary = try Scratch()
        let scratch = temporary.path
        let fixtures = scratch + "/Fixtures", bin = scratch + "/bin"
        try FileManager.default.createDirectory(atPath: fixtures + "/profiles", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestPaths.fixtures + "/generate.sh", toPath: fixtures + "/generate.sh")
        let sentinel = fixtures + "/profiles/sentinel.mobileprovision"
        #expect(FileManager.default.createFile(atPath: sentinel, contents: Data("x".utf8)))
        // Only what the script runs before its check: python3 and dirname, plus the stand-in openssl.
        for tool in ["python3", "dirname"] {
            guard let path = Self.which(tool) else { Issue.record("\(tool) not found"); continue }
            try FileManager.default.createSymbolicLink(atPath: bin + "/" + tool, withDestinationPath: path)
        }
        if let version {
            try "#!/bin/sh\necho '\(version)'\n".write(toFile: bin + "/openssl", atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin + "/openssl")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [fixtures + "/generate.sh"]
        process.environment = ["PATH": bin, "HOME": scratch]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self),
                FileManager.default.fileExists(atPath: sentinel))
    }

    private static func which(_ tool: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        where FileManager.default.isExecutableFile(atPath: folder + "/" + tool) {
            return folder + "/" + tool
        }
        return nil
    }

    @Test(arguments: ["LibreSSL 3.3.6", "OpenSSL 1.1.1w  11 Sep 2023", nil])
    func anythingButOpenSSL3FailsClearlyAndDeletesNothing(version: String?) throws {
        let result = try run(withOpenSSLPrinting: version)
        #expect(result.status == 1)
        #expect(result.stderr.contains("needs OpenSSL 3 or later"), "\(result.stderr)")
        #expect(result.stderr.contains("brew install openssl@3"))
        #expect(result.stderr.contains("brew --prefix openssl@3)/bin:$PATH"))
        #expect(result.stderr.contains(version ?? "no openssl"))
        #expect(result.sentinelKept, "generate.sh deleted fixtures before checking openssl")
    }
}
