import CatalogTestSupport
import Foundation
import Testing

/// Issue 52 §10: the README's examples stay true. Every `console` block is run in order, as a
/// reader would after the quick start (from the package's folder, the demo catalogue in a scratch
/// folder, `catalog` on PATH, no terminal), and the output it shows must match what the command
/// prints: `…` stands for what the README leaves out (a line of its own: any lines; within a line:
/// any text), runs of spaces are one, and the day the demo catalogue was made reads as the README's.
@Suite(.timeLimit(.minutes(10))) struct ReadmeExamplesTests {
    /// The day the README's examples were ingested on: dates of the test's own ingest read as it.
    static let readmeIngestDay = "2026-11-30"  // as written in `collapsed(_:)` too

    /// One `$ command` of a console block and the output the README shows under it.
    struct Example {
        var line: Int
        var command: String
        var shown: [String]
    }

    /// The `console` blocks' examples, in README order.
    static func examples(_ readme: String) -> [Example] {
        var examples: [Example] = []
        var inConsole = false
        for (number, line) in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).enumerated() {
            if line.hasPrefix("```") {
                inConsole = line == "```console"
                continue
            }
            guard inConsole else { continue }
            if line.hasPrefix("$ ") {
                examples.append(Example(line: number + 1, command: String(line.dropFirst(2)), shown: []))
            } else if !examples.isEmpty {
                examples[examples.count - 1].shown.append(line)
            }
        }
        return examples
    }

    /// A line with runs of spaces as one, and what changes from run to run read as the README
    /// writes it: an ingest's duration, and the time of day of the demo ingest.
    static func collapsed(_ line: String) -> String {
        line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            .replacing(/\sin [0-9]+\.[0-9]+s\s/, with: " in 0.01s ")
            .replacing(/2026-11-30T[0-9]{2}:[0-9]{2}:[0-9]{2}Z/, with: "2026-11-30T00:00:00Z")
    }

    /// Whether `actual` matches the README line `shown`: `…` matches any text.
    static func lineMatches(_ shown: String, _ actual: String) -> Bool {
        let parts = collapsed(shown).components(separatedBy: "…")
        var rest = Substring(collapsed(actual))
        guard rest.hasPrefix(parts[0]) else { return false }
        rest = rest.dropFirst(parts[0].count)
        for (index, part) in parts.enumerated().dropFirst() {
            if index == parts.count - 1 { return part.isEmpty || rest.hasSuffix(part) }
            guard let found = rest.range(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        return rest.isEmpty
    }

    /// Whether the README's lines match all of the actual ones, a `…` line standing for any lines.
    static func linesMatch(_ shown: ArraySlice<String>, _ actual: ArraySlice<String>) -> Bool {
        guard let first = shown.first else { return actual.isEmpty }
        if first.trimmingCharacters(in: .whitespaces) == "…" {
            return (actual.startIndex...actual.endIndex).contains { linesMatch(shown.dropFirst(), actual[$0...]) }
        }
        guard let next = actual.first, lineMatches(first, next) else { return false }
        return linesMatch(shown.dropFirst(), actual.dropFirst())
    }

    /// The `"key": value` scalars a JSON example shows, each found (anywhere) in the printed JSON.
    static func jsonMismatches(_ shown: [String], _ actual: String) throws -> [String] {
        var pairs = Set<String>()
        func collect(_ value: Any, key: String?) {
            switch value {
            case let object as [String: Any]: for (key, value) in object { collect(value, key: key) }
            case let array as [Any]: for value in array { collect(value, key: key) }
            default:
                if let key, let data = try? JSONSerialization.data(withJSONObject: [key: value], options: [.fragmentsAllowed, .withoutEscapingSlashes]) {
                    pairs.insert(String(decoding: data, as: UTF8.self).dropFirst().dropLast().description)
                }
            }
        }
        collect(try CatalogProcess.json(actual), key: nil)
        let scalar = /"([a-z0-9_]+)": ("(?:[^"\\]|\\.)*"|-?[0-9]+|true|false|null)/
        return shown.joined(separator: "\n").matches(of: scalar).compactMap { match -> String? in
            guard !match.2.contains("…") else { return nil }
            let pair = "\"\(match.1)\":\(match.2)"
            return pairs.contains(pair) ? nil : "\(match.1): \(match.2)"
        }
    }

    /// The README's examples that cannot run on the bundled fixtures, and why.
    static let notRunHere: [String: String] = [
        #"catalog verify ~/Library/MobileDevice/Provisioning\ Profiles/*.mobileprovision --format table"#:
            "it shows a Mac's installed profiles, signed by Apple; the fixtures are signed by a test CA",
    ]

    @Test func everyConsoleExampleMatchesWhatTheCommandPrints() throws {
        let root = TestPaths.packageRoot
        let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
        let examples = Self.examples(readme)
        #expect(examples.count >= 15, "the README's console examples are found")
        let usesJQ = examples.contains { $0.command.contains("| jq") }
        let jq = ["/usr/bin/jq", "/usr/local/bin/jq", "/opt/homebrew/bin/jq"].first { FileManager.default.isExecutableFile(atPath: $0) }
        if usesJQ && jq == nil && TestPaths.toolsRequired { Issue.record("jq is required here (CATALOG_TEST_REQUIRE_TOOLS) and missing") }

        let symbolizer = ["/usr/bin", "/usr/local/bin"].contains { FileManager.default.isExecutableFile(atPath: $0 + "/llvm-symbolizer") }
        let scratch = try Scratch()
        let bin = URL(fileURLWithPath: CatalogProcess.executable).deletingLastPathComponent().path
        let environment = ["PATH": "\(bin):/usr/bin:/bin:/usr/local/bin:/opt/homebrew/bin", "HOME": scratch.path,
                           "CATALOG_DB": scratch.file("catalog-demo.sqlite"), "LC_ALL": "C.UTF-8", "TZ": "UTC"]
        let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        var lastStatus: Int32 = 0
        var ran = 0
        for example in examples {
            if let reason = Self.notRunHere[example.command] {
                print("README line \(example.line) not run: \(reason)")
                continue
            }
            if example.command == "echo $?" {
                #expect(example.shown == [String(lastStatus)], "README line \(example.line): exit status \(lastStatus)")
                continue
            }
            if example.command.contains("--symbolicate") && !symbolizer {
                if TestPaths.toolsRequired { Issue.record("llvm-symbolizer is required here (CATALOG_TEST_REQUIRE_TOOLS) and missing") }
                print("README line \(example.line) not run: llvm-symbolizer is not installed")
                continue
            }
            if example.command.contains("| jq") && jq == nil {
                print("README line \(example.line) not run: jq is not installed")
                continue
            }
            // The README's /tmp/catalog-demo… files are the test's own.
            let command = example.command.replacingOccurrences(of: "/tmp/catalog-demo", with: scratch.path + "/catalog-demo")
            let result = try CatalogProcess.runAsScheduled("/bin/sh", ["-c", "cd '\(root)' && \(command)"], environment: environment)
            lastStatus = result.status
            ran += 1
            let printed = result.output.replacingOccurrences(of: today, with: Self.readmeIngestDay)
            let actual = printed.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            let shown = example.shown.filter { !$0.isEmpty }
            if let first = shown.first, first.hasPrefix("{") || first.hasPrefix("[") {
                let missing = try Self.jsonMismatches(shown, result.output)
                #expect(missing.isEmpty, "README line \(example.line) `\(example.command)`: not printed: \(missing)\n\(result.output)")
            } else {
                #expect(Self.linesMatch(shown[...], actual[...]),
                        "README line \(example.line) `\(example.command)` shows\n\(shown.joined(separator: "\n"))\nbut prints\n\(printed)")
            }
        }
        #expect(ran >= examples.count - Self.notRunHere.count - 3, "every example ran but those said")
    }

    /// The matcher itself: `…` lines and `…` within lines, and what must not match.
    @Test func theMatcherReadsEllipsesAsTheReadmeMeansThem() {
        #expect(Self.linesMatch(["a", "…", "d"], ["a", "b", "c", "d"]))
        #expect(Self.linesMatch(["a", "…"], ["a"]))
        #expect(!Self.linesMatch(["a", "d"], ["a", "b", "d"]), "lines the README shows are all the lines")
        #expect(Self.lineMatches("x  /…/Fixtures/a.ipa  y", "x /work/main/Fixtures/a.ipa y"))
        #expect(!Self.lineMatches("x  /…/Fixtures/a.ipa", "x /work/main/Fixtures/b.ipa"))
        #expect(!Self.lineMatches("in 45 days", "in 46 days"))
    }
}
