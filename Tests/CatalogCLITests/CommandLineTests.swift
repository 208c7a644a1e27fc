import CatalogTestSupport
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10))) struct CommandLineTests {
    /// CHANGELOG.md's newest section is the version the binary prints.
    @Test func versionMatchesTheChangelog() throws {
        let version = try CatalogProcess.run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let changelog = try String(contentsOfFile: TestPaths.packageRoot + "/CHANGELOG.md", encoding: .utf8)
        let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## ") }
        #expect(newest?.hasPrefix("## \(version) ") == true, "CHANGELOG.md's newest section: \(newest ?? "none")")
    }

    @Test func versionAndHelpGoToStdout() throws {
        let version = try CatalogProcess.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
        let help = try CatalogProcess.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("SUBCOMMANDS:"))
        #expect(help.stdout.contains("decode"))
        let sub = try CatalogProcess.run(["help", "decode"])
        #expect(sub.status == 0)
        #expect(sub.stdout.contains("OVERVIEW:"))
        #expect(sub.stdout.contains("USAGE: catalog decode"))
        #expect(sub.stdout.contains("ARGUMENTS:"))
        #expect(sub.stdout.contains("OPTIONS:"))
        let flag = try CatalogProcess.run(["decode", "--help"])
        #expect(flag.status == 0)
        #expect(flag.stdout == sub.stdout)
    }

    @Test func usageErrorsExit64WithHint() throws {
        let unknown = try CatalogProcess.run(["frobnicate"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("Error: unknown subcommand 'frobnicate'"))
        #expect(unknown.stdout.isEmpty)

        let badOption = try CatalogProcess.run(["decode", "--bogus", "x"])
        #expect(badOption.status == 64)
        #expect(badOption.stderr.contains("Error: unknown option '--bogus'"))
        #expect(badOption.stderr.contains("Usage: catalog decode"))
        #expect(badOption.stderr.contains("See 'catalog decode --help' for more information."))

        let missing = try CatalogProcess.run(["decode"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("missing argument <file>"))

        let badFormat = try CatalogProcess.run(["decode", "--format=xml", "x"])
        #expect(badFormat.status == 64)
    }

    @Test func noArgumentsPrintsHelpToStderr() throws {
        let result = try CatalogProcess.run([])
        #expect(result.status == 64)
        #expect(result.stderr.contains("USAGE: catalog [--db <path>] [--format <format>] [--width <n>] <subcommand>"))
    }

    /// Issue 52 §8: a format written as an option of its own points at the option that takes it.
    @Test func aFormatWrittenAsAnOptionIsPointedAtTheRightOne() throws {
        for (command, format) in [("report", "markdown"), ("profiles", "csv"), ("expiring", "ndjson")] {
            let result = try CatalogProcess.run([command, "--" + format])
            #expect(result.status == 64)
            #expect(result.stderr.contains("did you mean '--format \(format)'?"), "\(command): \(result.stderr)")
        }
    }
}
