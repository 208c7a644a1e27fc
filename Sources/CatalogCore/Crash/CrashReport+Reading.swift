import Foundation

extension CrashReport {
    /// Largest report read: real ones are tens to hundreds of kilobytes.
    public static let maximumSize = 64 << 20
    /// Most images, threads and frames per thread kept; a hostile report cannot grow without bound.
    static let maximumImages = 10_000
    static let maximumThreads = 1_000
    static let maximumFrames = 2_000
    /// Deepest JSON nesting accepted: real bodies nest a handful of levels.
    static let maximumDepth = 64

    /// Reads a crash report told by its content, not its name: a one-line JSON header followed by a
    /// JSON body (`.ips`) or by a text report, or a text report alone (`.crash`).
    ///
    /// - Throws: ``DecodeError`` (`.empty`, `.tooLarge`, `.malformedCrashReport` naming the line).
    public init(bytes: [UInt8], path: String) throws {
        guard !bytes.isEmpty else { throw DecodeError(.empty, "the file is empty", path: path) }
        guard bytes.count <= Self.maximumSize else {
            throw DecodeError(.tooLarge, "\(bytes.count) bytes is too large for a crash report", path: path)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        func fail(_ reason: String, line: Int) -> DecodeError {
            DecodeError(.malformedCrashReport, "line \(line): \(reason)", path: path)
        }
        guard let first = lines.firstIndex(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw DecodeError(.empty, "the file holds only blank lines", path: path)
        }
        guard lines[first].trimmingCharacters(in: .whitespaces).hasPrefix("{") else {
            self = try Self.text(lines, from: first, header: nil, fail: fail)
            return
        }
        guard let header = Self.jsonObject(String(lines[first])) else {
            throw fail("the first line starts like a JSON header but is not a JSON object", line: first + 1)
        }
        let rest = lines[(first + 1)...]
        guard let bodyStart = rest.firstIndex(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw fail("nothing follows the JSON header (truncated?)", line: first + 1)
        }
        if rest[bodyStart].trimmingCharacters(in: .whitespaces).hasPrefix("{") {
            let body = rest[bodyStart...].joined(separator: "\n")
            guard let end = try Self.endOfJSONObject(body, fail: { fail($0, line: bodyStart + 1 + $1) }) else {
                throw fail("the JSON body is not closed (truncated?)", line: lines.count)
            }
            guard let object = Self.jsonObject(String(body[..<end])) else {
                throw fail("the JSON body is not a JSON object", line: bodyStart + 1)
            }
            self = Self.ips(header: header, body: object)
        } else {
            self = try Self.text(lines, from: bodyStart, header: header, fail: fail)
        }
    }

    // MARK: JSON

    private static func jsonObject(_ text: String) -> [String: Any]? {
        guard let data = text.data(using: .utf8) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// Where the JSON object that `text` starts with ends (after its closing brace), strings and
    /// escapes respected; nil when it is not closed. Too deep a nesting is an error.
    private static func endOfJSONObject(_ text: String, fail: (String, Int) -> DecodeError) throws -> String.Index? {
        var depth = 0, inString = false, escaped = false, line = 0
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "\n" { line += 1 }
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "{" || character == "[" {
                depth += 1
                guard depth <= maximumDepth else { throw fail("JSON nested deeper than \(maximumDepth) levels", line) }
            } else if character == "}" || character == "]" {
                depth -= 1
                if depth == 0 { return text.index(after: index) }
            }
            index = text.index(after: index)
        }
        return nil
    }

    private static func ips(header: [String: Any], body: [String: Any]) -> CrashReport {
        var report = CrashReport(format: .ips)
        let bundle = body["bundleInfo"] as? [String: Any] ?? [:]
        report.incidentID = string(header["incident_id"]) ?? string(body["incident"])
        report.process = string(body["procName"]) ?? string(header["app_name"]) ?? string(header["name"])
        report.bundleID = string(bundle["CFBundleIdentifier"]) ?? string(header["bundleID"])
        report.shortVersion = string(bundle["CFBundleShortVersionString"]) ?? string(header["app_version"])
        report.build = string(bundle["CFBundleVersion"]) ?? string(header["build_version"])
        if let os = string(header["os_version"]) {
            report.osVersion = os
        } else if let os = body["osVersion"] as? [String: Any] {
            report.osVersion = [string(os["train"]), string(os["build"]).map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        }
        report.hardwareModel = string(body["modelCode"])
        report.crashedAt = (string(header["timestamp"]) ?? string(body["captureTime"])).flatMap(date)
        report.codeType = string(body["cpuType"]).map(architecture)
        let procPath = string(body["procPath"])
        let slice = string(header["slice_uuid"]).flatMap(MachOFile.canonicalUUID)
        for entry in (body["usedImages"] as? [Any] ?? []).prefix(maximumImages) {
            let image = entry as? [String: Any] ?? [:]
            let path = string(image["path"])
            let name = string(image["name"]) ?? path.map { ($0 as NSString).lastPathComponent } ?? "???"
            report.images.append(Image(name: name, uuid: string(image["uuid"]).flatMap(MachOFile.canonicalUUID),
                                       arch: string(image["arch"]) ?? report.codeType, path: path,
                                       loadAddress: number(image["base"]), size: number(image["size"]), isMain: false))
        }
        let main = report.images.firstIndex { slice != nil && $0.uuid == slice }
            ?? report.images.firstIndex { procPath != nil && $0.path == procPath }
            ?? (report.images.isEmpty ? nil : 0)
        if let main { report.images[main].isMain = true }
        let faulting = number(body["faultingThread"]).map { Int(clamping: $0) }
        report.crashedThreadIndex = faulting
        for (index, entry) in (body["threads"] as? [Any] ?? []).prefix(maximumThreads).enumerated() {
            let thread = entry as? [String: Any] ?? [:]
            var frames: [Frame] = []
            for (position, value) in (thread["frames"] as? [Any] ?? []).prefix(maximumFrames).enumerated() {
                let frame = value as? [String: Any] ?? [:]
                let imageIndex = number(frame["imageIndex"]).flatMap { Int(exactly: $0) }.flatMap { report.images.indices.contains($0) ? $0 : nil }
                let offset = number(frame["imageOffset"])
                let base = imageIndex.flatMap { report.images[$0].loadAddress }
                frames.append(Frame(index: position, image: imageIndex.map { report.images[$0].name }, imageIndex: imageIndex,
                                    address: base.flatMap { base in offset.map { base &+ $0 } }, imageOffset: offset,
                                    symbol: string(frame["symbol"])))
            }
            let crashed = (thread["triggered"] as? Bool) == true || faulting == index
            report.threads.append(Thread(index: index, crashed: crashed, frames: frames))
            if crashed, report.crashedThreadIndex == nil { report.crashedThreadIndex = index }
        }
        return report
    }

    private static func string(_ value: Any?) -> String? {
        switch value {
        case let text as String: return text.isEmpty ? nil : text
        case let number as NSNumber: return number.stringValue
        default: return nil
        }
    }

    private static func number(_ value: Any?) -> UInt64? {
        switch value {
        case let number as NSNumber:
            let double = number.doubleValue
            guard double >= 0, double < 1.8e19 else { return nil }
            return number.uint64Value
        case let text as String:
            return text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        default: return nil
        }
    }

    // MARK: Text

    private static func text(_ lines: [Substring], from start: Int, header: [String: Any]?,
                             fail: (String, Int) -> DecodeError) throws -> CrashReport {
        var report = CrashReport(format: .crash)
        var fields: [String: String] = [:]
        var threads: [Thread] = []
        var current: Thread?
        var imagesLine: Int?
        var index = start
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("Binary Images:") {
                imagesLine = index
                break
            }
            // `Thread 3:`, `Thread 0 Crashed:`, macOS's `Thread 0 Crashed::  Dispatch queue: …`; not
            // `Thread 0 name: …` nor `Thread 0 crashed with ARM Thread State (64-bit):`.
            let afterWord = trimmed.dropFirst(7)
            let digits = afterWord.prefix { $0.isNumber }
            let tail = afterWord.dropFirst(digits.count)
            if trimmed.hasPrefix("Thread "), let number = Int(digits), tail.hasPrefix(":") || tail.hasPrefix(" Crashed:") {
                if let current { threads.append(current) }
                current = Thread(index: number, crashed: tail.hasPrefix(" Crashed:"), frames: [])
            } else if var thread = current, let frame = frameLine(trimmed) {
                if thread.frames.count < maximumFrames { thread.frames.append(frame) }
                current = thread
            } else if let colon = trimmed.firstIndex(of: ":"), trimmed.first?.isNumber == false {
                // `Key: value`; the first of each key counts (a later section may reuse a name).
                let key = String(trimmed[..<colon])
                if fields[key] == nil, key.count < 40 {
                    fields[key] = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
            if trimmed.isEmpty, let thread = current {
                threads.append(thread)
                current = nil
            }
            index += 1
        }
        if let current { threads.append(current) }
        guard let imagesLine else {
            throw fail("no Binary Images section (truncated?)", lines.count)
        }

        report.incidentID = fields["Incident Identifier"] ?? header.flatMap { string($0["incident_id"]) }
        report.hardwareModel = fields["Hardware Model"]
        report.process = fields["Process"].map { name in
            name.range(of: " [", options: .backwards).map { String(name[..<$0.lowerBound]) } ?? name
        } ?? header.flatMap { string($0["app_name"]) }
        report.bundleID = fields["Identifier"] ?? header.flatMap { string($0["bundleID"]) }
        report.osVersion = fields["OS Version"] ?? header.flatMap { string($0["os_version"]) }
        report.codeType = fields["Code Type"].map { architecture(String($0.split(separator: " ").first ?? "")) }
        report.crashedAt = (fields["Date/Time"] ?? header.flatMap { string($0["timestamp"]) }).flatMap(date)
        if let crashed = fields["Crashed Thread"] ?? fields["Triggered by Thread"] {
            report.crashedThreadIndex = Int(crashed.prefix { $0.isNumber })
        }
        if let version = fields["Version"] {
            (report.shortVersion, report.build) = versions(version, os: report.osVersion)
        }
        report.shortVersion = report.shortVersion ?? header.flatMap { string($0["app_version"]) }
        report.build = report.build ?? header.flatMap { string($0["build_version"]) }

        var mainIndex: Int?
        index = imagesLine + 1
        while index < lines.count, report.images.count < maximumImages {
            let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { break }
            guard trimmed.hasPrefix("0x") else { break }
            guard let (image, marked) = imageLine(trimmed, codeType: report.codeType) else {
                throw fail("a Binary Images line does not read as '0xSTART - 0xEND name <uuid> path'", index + 1)
            }
            if marked, mainIndex == nil { mainIndex = report.images.count }
            report.images.append(image)
            index += 1
        }
        let slice = header.flatMap { string($0["slice_uuid"]) }.flatMap(MachOFile.canonicalUUID)
        let executable = fields["Path"]
        mainIndex = mainIndex ?? report.images.firstIndex { slice != nil && $0.uuid == slice }
            ?? report.images.firstIndex { executable != nil && $0.path == executable }
            ?? report.images.firstIndex { $0.name == report.process || $0.name == report.bundleID }
            ?? (report.images.isEmpty ? nil : 0)
        if let mainIndex { report.images[mainIndex].isMain = true }

        for thread in threads.prefix(maximumThreads) {
            var resolved = thread
            resolved.crashed = thread.crashed || thread.index == report.crashedThreadIndex
            for position in resolved.frames.indices {
                let name = resolved.frames[position].image
                if let found = report.images.firstIndex(where: { $0.name == name || ($0.path.map { ($0 as NSString).lastPathComponent } == name) }) {
                    resolved.frames[position].imageIndex = found
                    if resolved.frames[position].imageOffset == nil, let address = resolved.frames[position].address,
                       let base = report.images[found].loadAddress, address >= base {
                        resolved.frames[position].imageOffset = address - base
                    }
                }
            }
            report.threads.append(resolved)
        }
        return report
    }

    /// `12  Runner  0x0000000100e6f9a4 0x100e6c000 + 14756` or, symbolicated,
    /// `0   Runner  0x0000000100e6f9a4 main + 72 (AppDelegate.swift:12)`.
    private static func frameLine(_ line: String) -> Frame? {
        let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count >= 3, let number = Int(parts[0]),
              let addressIndex = parts.indices.dropFirst(2).first(where: { parts[$0].hasPrefix("0x") && UInt64(parts[$0].dropFirst(2), radix: 16) != nil })
        else { return nil }
        let image = parts[1..<addressIndex].joined(separator: " ")
        let address = UInt64(parts[addressIndex].dropFirst(2), radix: 16)
        let rest = parts[(addressIndex + 1)...]
        var offset: UInt64?
        var symbol: String?
        if rest.count >= 3, rest.first?.hasPrefix("0x") == true, rest[rest.startIndex + 1] == "+" {
            offset = UInt64(rest[rest.startIndex + 2])
        } else if !rest.isEmpty {
            symbol = rest.joined(separator: " ")
        }
        return Frame(index: number, image: image, imageIndex: nil, address: address, imageOffset: offset, symbol: symbol)
    }

    /// `0x100e6c000 - 0x100e73fff Runner arm64  <6d254a2f0a5e3faf8e0499d099b16b6c> /var/…/Runner.app/Runner`,
    /// with `+` before a main image's name in some writers, and on macOS 12+ `com.example.App (1.0 - 1)`
    /// or `(*)` and no architecture.
    private static func imageLine(_ line: String, codeType: String?) -> (Image, Bool)? {
        guard let open = line.firstIndex(of: "<"), let close = line[open...].firstIndex(of: ">"),
              let uuid = MachOFile.canonicalUUID(String(line[line.index(after: open)..<close])) else { return nil }
        let head = line[..<open].split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard head.count >= 4, head[0].hasPrefix("0x"), head[1] == "-", head[2].hasPrefix("0x"),
              let start = UInt64(head[0].dropFirst(2), radix: 16), let end = UInt64(head[2].dropFirst(2), radix: 16) else { return nil }
        var words = head[3...].map(String.init)
        var marked = false
        if words.first == "+" { words.removeFirst(); marked = true }
        if let first = words.first, first.hasPrefix("+") { words[0] = String(first.dropFirst()); marked = true }
        // A trailing parenthesised version (`(1.0 - 1)`, `(*)`) is not part of the name.
        if let paren = words.firstIndex(where: { $0.hasPrefix("(") }) { words.removeSubrange(paren...) }
        let known: Set<String> = ["arm64", "arm64e", "x86_64", "x86_64h", "armv7", "armv7s", "armv7k", "arm64_32", "i386"]
        var arch: String?
        if let last = words.last, known.contains(last) { arch = last; words.removeLast() }
        guard !words.isEmpty else { return nil }
        let path = line[line.index(after: close)...].trimmingCharacters(in: .whitespaces)
        let image = Image(name: words.joined(separator: " "), uuid: uuid, arch: arch ?? codeType, path: path.isEmpty ? nil : path,
                          loadAddress: start, size: end >= start ? end - start + 1 : nil, isMain: marked)
        return (image, marked)
    }

    /// `1.2 (34)`: which part is the build depends on the system that wrote it — text reports before
    /// iOS 15 (and watchOS 8, tvOS 15) wrote `BUILD (SHORT)`, later ones and macOS `SHORT (BUILD)`.
    static func versions(_ text: String, os: String?) -> (short: String?, build: String?) {
        func known(_ part: String) -> String? { part.isEmpty || part == "???" ? nil : part }
        guard let open = text.lastIndex(of: "("), text.hasSuffix(")") else { return (known(text.trimmingCharacters(in: .whitespaces)), nil) }
        let outer = text[..<open].trimmingCharacters(in: .whitespaces)
        let inner = text[text.index(after: open)..<text.index(before: text.endIndex)].trimmingCharacters(in: .whitespaces)
        return buildFirst(os) ? (known(inner), known(outer)) : (known(outer), known(inner))
    }

    /// Whether a text report from `os` writes `Version:` as `BUILD (SHORT)`.
    private static func buildFirst(_ os: String?) -> Bool {
        guard let os else { return false }
        let words = os.split(separator: " ")
        guard let numberIndex = words.firstIndex(where: { $0.first?.isNumber == true }),
              let major = Int(words[numberIndex].split(separator: ".").first ?? "") else { return false }
        let name = words[..<numberIndex].joined(separator: " ").lowercased()
        switch name {
        case "iphone os", "ios", "ipados": return major < 15
        case "watch os", "watchos": return major < 8
        case "tvos", "apple tvos": return major < 15
        default: return false
        }
    }

    /// `ARM-64` → `arm64`, `X86-64` → `x86_64`, `ARM64E` → `arm64e`; others lower-cased.
    static func architecture(_ text: String) -> String {
        switch text.uppercased() {
        case "ARM-64", "ARM64": return "arm64"
        case "ARM64E", "ARM-64E": return "arm64e"
        case "X86-64", "X86_64": return "x86_64"
        case "ARM64_32", "ARM-64_32": return "arm64_32"
        case "ARM": return "armv7"
        default: return text.lowercased()
        }
    }

    /// `2021-09-20 12:34:56.7890 +0200` (fraction digits vary) or ISO 8601.
    static func date(_ text: String) -> Date? {
        if let iso = ISO8601.parse(text) { return iso }
        let parts = text.split(separator: " ")
        guard parts.count >= 3 else { return nil }
        let time = parts[1].split(separator: ".").first.map(String.init) ?? String(parts[1])
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return formatter.date(from: "\(parts[0]) \(time) \(parts[2])")
    }
}
