import CatalogCore
import Foundation

/// Turns addresses in an image into function, file and line, through the symbolizer installed here:
/// `atos` on macOS, `llvm-symbolizer` elsewhere (Debian's `llvm`), found on PATH.
struct Symbolizer {
    enum Tool: Equatable {
        case atos(String)
        case llvmSymbolizer(String)
    }

    /// What one address is.
    struct Location: Equatable {
        var symbol: String?
        var file: String?
        var line: Int?
    }

    let tool: Tool

    /// What to install when no symbolizer is found, said on stderr.
    static let installHint = "no symbolizer found on PATH: install llvm-symbolizer (Debian and Ubuntu: apt-get install llvm) "
        + "or, on macOS, Xcode or its command line tools (atos); frames are printed unsymbolicated"

    /// The symbolizer on `PATH`: `atos` first on macOS, then `llvm-symbolizer` (or a versioned one).
    static func find(path: String?) -> Symbolizer? {
        let folders = (path ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        func which(_ name: String) -> String? {
            folders.lazy.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        #if os(macOS)
        if let atos = which("atos") { return Symbolizer(tool: .atos(atos)) }
        #endif
        let names = ["llvm-symbolizer"] + (11...21).reversed().map { "llvm-symbolizer-\($0)" }
        for name in names {
            if let found = which(name) { return Symbolizer(tool: .llvmSymbolizer(found)) }
        }
        return nil
    }

    /// The locations of `addresses` (as the crash report gives them, in the running process) in the
    /// image loaded at `loadAddress`, from `dwarf` (a dSYM's DWARF file) whose `__TEXT` segment is
    /// at `textAddress`; an address the tool cannot place is left out.
    func symbolicate(_ addresses: [UInt64], dwarf: String, arch: String?, loadAddress: UInt64,
                     textAddress: UInt64) throws -> [UInt64: Location] {
        guard !addresses.isEmpty else { return [:] }
        let unique = Array(Set(addresses)).sorted()
        switch tool {
        case .llvmSymbolizer(let executable):
            // Addresses as the file has them: its __TEXT address plus the offset into the loaded image.
            let mapped = unique.map { textAddress &+ ($0 &- loadAddress) }
            var arguments = ["--output-style=JSON", "--obj=" + dwarf]
            if let arch { arguments.append("--default-arch=" + arch) }
            arguments += mapped.map { "0x" + String($0, radix: 16) }
            let output = try Self.run(executable, arguments)
            return try Self.parseLLVM(output, addresses: unique)
        case .atos(let executable):
            var arguments = ["-o", dwarf, "-l", "0x" + String(loadAddress, radix: 16)]
            if let arch { arguments += ["-arch", arch] }
            arguments += unique.map { "0x" + String($0, radix: 16) }
            let output = try Self.run(executable, arguments)
            return Self.parseAtos(output, addresses: unique)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// How long one run of the tool may take: a symbolizer that hangs must not hold a cron job.
    static let timeLimit: TimeInterval = 60

    /// Runs the tool, stopped after `timeLimit` seconds; its stdout.
    static func run(_ executable: String, _ arguments: [String], timeLimit: TimeInterval = timeLimit) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let started = Date()
        do { try process.run() } catch { throw Failure(description: "\(executable): \(error.localizedDescription)") }
        // SIGKILL, which no mask holds off: a tool started from a worker thread inherits its blocked signals.
        let pid = process.processIdentifier
        let deadline = DispatchWorkItem { if process.isRunning { kill(pid, SIGKILL) } }
        // A queue of its own gets a thread of its own: the global queues' few may all be waiting,
        // as this one is, and the deadline would come only when the tool ends.
        DispatchQueue(label: "catalog.symbolizer.deadline").asyncAfter(deadline: .now() + timeLimit, execute: deadline)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        deadline.cancel()
        let status = process.terminationStatus
        if process.terminationReason == .exit {
            guard status == 0 else { throw Failure(description: "\(executable) failed (exit status \(status))") }
            return String(decoding: data, as: UTF8.self)
        }
        if Date().timeIntervalSince(started) >= timeLimit {
            throw Failure(description: "\(executable) gave no answer within \(Int(timeLimit)) s and was stopped")
        }
        throw Failure(description: "\(executable) was killed by signal \(status)")
    }

    /// `llvm-symbolizer --output-style=JSON`: one object per address, in order, with `Symbol` frames
    /// (inlined ones first; the last is the function the address is in).
    static func parseLLVM(_ output: String, addresses: [UInt64]) throws -> [UInt64: Location] {
        guard let list = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] else {
            throw Failure(description: "llvm-symbolizer printed no JSON")
        }
        var found: [UInt64: Location] = [:]
        for (address, entry) in zip(addresses, list) {
            guard let frame = (entry["Symbol"] as? [[String: Any]])?.first else { continue }
            let name = frame["FunctionName"] as? String
            guard let name, !name.isEmpty, name != "??" else { continue }
            let file = (frame["FileName"] as? String).flatMap { $0.isEmpty || $0 == "??" ? nil : $0 }
            let line = (frame["Line"] as? Int).flatMap { $0 > 0 ? $0 : nil }
            found[address] = Location(symbol: SwiftDemangler.demangle(name), file: file, line: line)
        }
        return found
    }

    /// `atos`: one line per address, `function (in Image) (file.swift:12)`, or the address itself
    /// when it cannot place it.
    static func parseAtos(_ output: String, addresses: [UInt64]) -> [UInt64: Location] {
        var found: [UInt64: Location] = [:]
        for (address, line) in zip(addresses, output.split(separator: "\n", omittingEmptySubsequences: false)) {
            let text = String(line)
            guard !text.hasPrefix("0x"), let inRange = text.range(of: " (in ") else { continue }
            var location = Location(symbol: SwiftDemangler.demangle(String(text[..<inRange.lowerBound])))
            if text.hasSuffix(")"), let open = text.range(of: ") (", options: .backwards) {
                let place = text[open.upperBound..<text.index(before: text.endIndex)]
                if let colon = place.lastIndex(of: ":"), let number = Int(place[place.index(after: colon)...]) {
                    location.file = String(place[..<colon])
                    location.line = number
                }
            }
            found[address] = location
        }
        return found
    }
}
