import Foundation

/// Runs the built `catalog` executable as a child process and captures what it printed.
public struct CatalogProcess {
    public struct Result {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    public static var fixtures: String { TestPaths.fixtures }
    public static var realCorpus: String? { TestPaths.realCorpus }
    public static var executable: String { TestPaths.catalogExecutable }

    /// Runs `catalog arguments…` (the debug build, or `binary`: the release one, say).
    public static func run(_ arguments: [String], environment: [String: String] = [:], cwd: String? = nil,
                           binary: String = executable) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "CATALOG_DB")
        env.removeValue(forKey: "NO_COLOR")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let cwd { process.currentDirectoryURL = URL(fileURLWithPath: cwd) }
        let (status, outData, errData) = try capture(process)
        return Result(status: status,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs `process` with no input and its stdout and stderr captured as bytes, read concurrently
    /// so that a large output cannot deadlock the child; its exit status and both outputs.
    public static func capture(_ process: Process) throws -> (status: Int32, stdout: Data, stderr: Data) {
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, outData, errData)
    }

    /// Whether util-linux `script(1)` can give ``onTerminal(_:columns:stderr:)`` a pseudo-terminal.
    public static let hasLinuxScript: Bool = {
        #if os(Linux)
        return FileManager.default.isExecutableFile(atPath: "/usr/bin/script")
        #else
        return false
        #endif
    }()

    /// What `catalog arguments…` prints on a pseudo-terminal `columns` wide (util-linux `script`),
    /// stderr too when `stderr`, with the terminal's line ends made `\n`.
    public static func onTerminal(_ arguments: [String], columns: Int, stderr: Bool = false) throws -> String {
        let quoted = ([executable] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", quoted.joined(separator: " ") + (stderr ? "" : " 2>/dev/null"), "/dev/null"]
        process.environment = ["COLUMNS": "\(columns)", "PATH": "/usr/bin:/bin", "TERM": "dumb", "NO_COLOR": "1"]
        let (_, stdout, _) = try capture(process)
        return String(decoding: stdout, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }

    /// Runs a program as a scheduler does (cron, launchd): exactly `environment`, no terminal, stdout
    /// and stderr into one stream, as either would mail or log them.
    public static func runAsScheduled(_ executable: String, _ arguments: [String],
                               environment: [String: String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, printed)
    }

    /// Parses stdout as JSON (objects as `[String: Any]`).
    public static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }
}
