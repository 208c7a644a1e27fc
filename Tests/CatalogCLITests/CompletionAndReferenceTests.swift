import CatalogTestSupport
import Foundation
import Testing

/// Shell completions load in real shells and complete subcommands, options and enumerated
/// values; `docs/cli.md` is the current help text of every command.
@Suite(.timeLimit(.minutes(10))) struct CompletionAndReferenceTests {
    /// Where a shell is: the first executable `name` on PATH, else in the folders systems put it in
    /// (`/bin/zsh` on macOS, `/usr/bin/zsh` on Debian, Homebrew's for fish). Nil when there is none.
    static func locate(_ name: String) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        let folders = path + ["/bin", "/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]
        return folders.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether a test with the shell runs: it is there, or it must (under `.ci/run`, which installs
    /// them, a missing one fails instead of skipping).
    static func shell(_ name: String) -> Bool {
        locate(name) != nil || TestPaths.toolsRequired
    }

    /// Runs `shell -c script` with the completion script for `name` saved beside it.
    static func run(_ shell: String, completions name: String, _ script: String) throws -> (status: Int32, output: String) {
        let shellPath = try #require(locate(shell), "\(shell) not found on PATH or in /bin, /usr/bin, /usr/local/bin, /opt/homebrew/bin")
        let generated = try CatalogProcess.run(["completions", name])
        #expect(generated.status == 0, "\(generated.stderr)")
        let file = TestPaths.temporary + "catalog-completion-" + UUID().uuidString
        try generated.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        // The shell's own folder on PATH, for scripts that start it again (`zsh -n`).
        let folder = (shellPath as NSString).deletingLastPathComponent
        return try CatalogProcess.runAsScheduled(shellPath, ["-c", script.replacingOccurrences(of: "SCRIPT", with: file)],
                                                 environment: ["PATH": folder + ":/usr/bin:/bin", "HOME": NSTemporaryDirectory()])
    }

    @Test(.enabled(if: shell("bash"), "needs bash"))
    func bashCompletionsLoadAndComplete() throws {
        let (status, output) = try Self.run("bash", completions: "bash", """
            source SCRIPT
            complete -p catalog
            try() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _catalog; echo "${COMPREPLY[*]}"; }
            try catalog exp
            try catalog expiring --kind ""
            try catalog --db x.sqlite profiles --plat
            try catalog profiles --format ""
            try catalog completions ""
            """)
        #expect(status == 0, "\(output)")
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("complete ") == true && lines.first?.hasSuffix(" catalog") == true, "\(output)")
        #expect(lines.dropFirst().first == "expiring")
        #expect(lines.dropFirst(2).first == "development ad-hoc app-store enterprise developer-id")
        #expect(lines.dropFirst(3).first == "--platform")
        #expect(lines.dropFirst(4).first == "table json ndjson csv")
        #expect(lines.dropFirst(5).first == "bash zsh fish")
    }

    @Test(.enabled(if: shell("zsh"), "needs zsh (Debian package zsh; .ci/run installs it)"))
    func zshCompletionsParseAndLoad() throws {
        let (status, output) = try Self.run("zsh", completions: "zsh", """
            zsh -n SCRIPT || exit 3
            autoload -U compinit && compinit -u -D
            source SCRIPT 2>&1
            whence -w _catalog
            """)
        #expect(status == 0, "\(output)")
        #expect(output.contains("_catalog: function"), "\(output)")
    }

    @Test(.enabled(if: shell("fish"), "needs fish (Debian package fish; .ci/run installs it)"))
    func fishCompletionsParseAndComplete() throws {
        let (status, output) = try Self.run("fish", completions: "fish", """
            source SCRIPT; or exit 3
            complete -C 'catalog exp'
            complete -C 'catalog expiring --kind '
            """)
        #expect(status == 0, "\(output)")
        #expect(output.contains("expiring\t"))
        for kind in ["development", "ad-hoc", "app-store", "enterprise", "developer-id"] {
            #expect(output.contains("\n\(kind)\t"), "\(kind): \(output)")
        }
    }

    @Test func unknownShellIsAUsageError() throws {
        let result = try CatalogProcess.run(["completions", "tcsh"])
        #expect(result.status == 64 && result.stderr.contains("bash, zsh, fish"))
    }

    @Test func theCLIReferenceIsCurrent() throws {
        let generated = try CatalogProcess.run(["help", "--markdown"])
        #expect(generated.status == 0)
        let committed = try String(contentsOfFile: TestPaths.packageRoot + "/docs/cli.md", encoding: .utf8)
        #expect(committed == generated.stdout, "docs/cli.md is stale: run Scripts/generate-cli-reference.sh")
        // Every command has its section.
        let help = try CatalogProcess.run(["--help"]).stdout
        let subcommands = help.components(separatedBy: "SUBCOMMANDS:\n").last?.components(separatedBy: "\n\n").first ?? ""
        // A command's row starts two spaces in; its abstract's continuation lines are indented further.
        let names = subcommands.split(separator: "\n").filter { !$0.hasPrefix("   ") }.compactMap { $0.split(separator: " ").first }
        #expect(names.count >= 12)
        for name in names { #expect(committed.contains("## `catalog \(name)`"), "\(name)") }
    }
}
