import CatalogStore
import CatalogTestSupport
import Foundation
import Testing

/// What a cron job sees: exit statuses that tell "found" from "failed", nothing on stdout when
/// there is nothing to say, and the README's crontab lines working as written.
@Suite(.timeLimit(.minutes(10))) struct CronTests {
    typealias Catalogue = QueryCommandTests.Catalogue

    @Test func exitCodeTellsFoundFromFailedFromUsage() throws {
        let catalogue = try Catalogue()
        let found = try catalogue.run(["expiring", "--as-of", "2026-11-20", "--days", "30", "--exit-code", "--format", "table"])
        #expect(found.status == 2)
        #expect(!found.stdout.isEmpty)
        let nothing = try catalogue.run(["expiring", "--as-of", "2040-01-01", "--days", "1", "--exit-code", "--format", "table"])
        #expect(nothing.status == 0)
        let missing = try CatalogProcess.run(["expiring", "--exit-code", "--db", catalogue.folder + "/absent.sqlite"])
        #expect(missing.status == 1, "a missing catalogue must not look like 'something expires': \(missing.stderr)")
        #expect(missing.stderr.hasPrefix("error: "))
        let usage = try catalogue.run(["expiring", "--exit-code", "--days", "soon"])
        #expect(usage.status == 64)
    }

    @Test(arguments: ["table", "csv", "ndjson", "json"])
    func nothingToShowPrintsNothingButJSONsEmptyArray(format: String) throws {
        let catalogue = try Catalogue()
        let commands: [[String]] = [
            ["expiring", "--as-of", "2040-01-01", "--days", "1"],
            ["profiles", "--team", "NOPE000000"],
            ["builds", "com.example.nothing"],
            ["certificates", "--team", "NOPE000000"],
        ]
        for command in commands {
            let result = try catalogue.run(command + ["--format", format])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            let expected = format == "json" ? "[]" : ""
            #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == expected, "\(command) --format \(format)")
            // stderr is not a terminal here: no hint either.
            #expect(result.stderr.isEmpty, "\(command) --format \(format): \(result.stderr)")
        }
    }

    /// Every job in the README's crontab, run as cron runs it (`/bin/sh -c`, the crontab's variable
    /// lines as environment, no terminal) against a tree where nothing expires (an app's Info.plist in
    /// each folder, a build without a profile: an empty folder is warned about): each must print
    /// nothing at all — cron mails any output — and exit 0.
    @Test func readmeCronLinesAreSilentWhenNothingIsWrong() throws {
        let crontab = try Self.readmeCrontab()
        let jobs = crontab.jobs
        #expect(jobs.count >= 2, "the README's cron block lists the nightly ingest and the weekly report")
        let scratch = try Scratch()
        let root = scratch.path
        // The README's /srv/… folders and /usr/local/bin/catalog, moved into a temp folder.
        func relocate(_ text: String) -> String {
            text.replacingOccurrences(of: "/usr/local/bin/catalog", with: CatalogProcess.executable)
                .replacingOccurrences(of: "/srv/", with: root + "/srv/")
        }
        for job in jobs {
            for word in job.split(separator: " ") where word.hasPrefix("/srv/") && !word.contains(".") {
                let folder = relocate(String(word))
                guard !FileManager.default.fileExists(atPath: folder) else { continue }
                try FileManager.default.createDirectory(atPath: folder + "/App", withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: CatalogProcess.fixtures + "/plists/app-xml.plist", toPath: folder + "/App/Info.plist")
            }
        }
        // The chat job needs jq and curl as cron finds them, and python3 for the receiver standing in
        // for the webhook; where one is missing (a fresh machine) that job is not run, and says so.
        let chatTools = ["jq", "curl", "python3"].filter { tool in
            !["/usr/bin", "/bin"].contains { FileManager.default.isExecutableFile(atPath: $0 + "/" + tool) }
        }
        let missingChatTools = chatTools.isEmpty ? nil : chatTools
        if let missingChatTools, TestPaths.toolsRequired { Issue.record("required here and missing: \(missingChatTools)") }
        // The chat webhook is a local receiver that keeps what it is sent.
        let webhook = try WebhookReceiver(folder: root, start: missingChatTools == nil)
        defer { webhook.stop() }
        var environment = ["PATH": "/usr/bin:/bin", "HOME": root, "SHELL": "/bin/sh"]
        for (name, value) in crontab.variables {
            environment[name] = name.hasSuffix("WEBHOOK_URL") ? webhook.url : relocate(value)
        }
        for job in jobs {
            if job.contains("WEBHOOK_URL"), let missingChatTools {
                print("README cron job not run: \(missingChatTools.joined(separator: ", ")) not installed: \(job)")
                continue
            }
            let (status, printed) = try CatalogProcess.runAsScheduled("/bin/sh", ["-c", relocate(job)],
                                                                      environment: environment)
            #expect(status == 0, "\(job): \(printed)")
            #expect(printed.isEmpty, "cron would mail this for '\(job)': \(printed)")
        }
        if missingChatTools == nil, jobs.contains(where: { $0.contains("WEBHOOK_URL") }) {
            let posted = try #require(webhook.received(), "the report job posted nothing")
            let message = try CatalogProcess.json(posted) as? [String: Any]
            #expect((message?["text"] as? String)?.hasPrefix("## Provisioning report") == true, "\(posted)")
        }
    }

    /// A local HTTP server (python3's) standing in for a Slack or Teams webhook: answers every POST
    /// 200 and keeps the last body in a file.
    struct WebhookReceiver {
        let process = Process()
        let url: String
        let bodyFile: String

        init(folder: String, start: Bool) throws {
            bodyFile = folder + "/webhook-body.json"
            let script = """
                import http.server, sys
                class H(http.server.BaseHTTPRequestHandler):
                    def do_POST(self):
                        body = self.rfile.read(int(self.headers.get('Content-Length', 0)))
                        open(sys.argv[1], 'wb').write(body)
                        self.send_response(200); self.end_headers(); self.wfile.write(b'ok')
                    def log_message(self, *a): pass
                s = http.server.HTTPServer(('127.0.0.1', 0), H)
                open(sys.argv[2] + '.tmp', 'w').write(str(s.server_address[1]))
                import os; os.rename(sys.argv[2] + '.tmp', sys.argv[2])
                s.serve_forever()
                """
            let portFile = folder + "/webhook-port"
            guard start else {
                url = "http://127.0.0.1:9/not-started"
                return
            }
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", script, bodyFile, portFile]
            try process.run()
            var port: String?
            for _ in 0..<200 where port == nil {
                port = try? String(contentsOfFile: portFile, encoding: .utf8)
                if port == nil { Thread.sleep(forTimeInterval: 0.05) }
            }
            url = "http://127.0.0.1:\(try #require(port, "the webhook receiver did not start"))/services/T0000/B0000/XXXXXXXX"
        }

        func received() -> String? { try? String(contentsOfFile: bodyFile, encoding: .utf8) }
        /// SIGKILL: a child of the test runner may inherit a mask that blocks SIGTERM.
        func stop() {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The README's fleet crontab (a build host ingesting into the PostgreSQL catalogue), run as cron
    /// runs it against the test server with its `$HOME` folders made from the fixtures: silent, exit 0,
    /// and the runs are the named host's.
    @Test(.enabled(if: PostgresTestServer.testsEnabled, Comment(rawValue: PostgresTestServer.unavailableReason)))
    func readmeFleetCronLineIngestsAsItsHost() throws {
        let crontab = try Self.readmeCrontab(fence: "```crontab\n")
        #expect(crontab.jobs.count == 1 && crontab.variables.map(\.0).sorted() == ["CATALOG_DB", "CATALOG_HOST"])
        let server = try #require(PostgresTestServer.url, "PostgreSQL tests are required here: \(PostgresTestServer.unavailableReason)")
        let name = "catalog_cron_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        let admin = try PostgreSQLConnection(server)
        try admin.execute("CREATE DATABASE \(name)")
        defer { _ = try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        let url = PostgresTestServer.replacingDatabase(in: server, with: name)
        let scratch = try Scratch()
        let home = scratch.path
        try FileManager.default.createDirectory(atPath: home + "/Library/Developer/Xcode/Archives", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home + "/Library/MobileDevice", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CatalogProcess.fixtures + "/profiles",
                                         toPath: home + "/Library/MobileDevice/Provisioning Profiles")
        var environment = ["PATH": "/usr/bin:/bin", "HOME": home, "SHELL": "/bin/sh"]
        for (variable, value) in crontab.variables {
            // The README's server is the test server; the host name stays as written.
            environment[variable] = variable == "CATALOG_DB" ? url : value
        }
        let job = crontab.jobs[0].replacingOccurrences(of: "/usr/local/bin/catalog", with: CatalogProcess.executable)
        let (status, printed) = try CatalogProcess.runAsScheduled("/bin/sh", ["-c", job], environment: environment)
        #expect(status == 0 && printed.isEmpty, "cron would mail this: \(printed)")
        let host = crontab.variables.first { $0.0 == "CATALOG_HOST" }?.1 ?? ""
        let hosts = try PostgreSQLConnection(url).query("SELECT DISTINCT host FROM profile_locations").compactMap { $0.string("host") }
        #expect(hosts == [host])
    }

    /// The first ```cron block of the README (or the first block opened by `fence`): `NAME=value`
    /// lines and jobs (five time fields, then the command). A line ending in `\` is refused: cron
    /// does not join lines.
    static func readmeCrontab(fence: String = "```cron\n") throws -> (variables: [(String, String)], jobs: [String]) {
        let readme = try String(contentsOfFile: TestPaths.packageRoot + "/README.md", encoding: .utf8)
        guard let start = readme.range(of: fence),
              let end = readme.range(of: "```", range: start.upperBound..<readme.endIndex) else {
            Issue.record("README.md has no \(fence) block")
            return ([], [])
        }
        var variables: [(String, String)] = []
        var jobs: [String] = []
        for line in readme[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            #expect(!trimmed.hasSuffix("\\"), "cron does not join lines ending in '\\': \(line)")
            let fields = trimmed.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            if fields.count == 6, let first = fields.first, first.first.map({ $0.isNumber || $0 == "*" || $0 == "@" }) == true {
                jobs.append(String(fields[5]).trimmingCharacters(in: .whitespaces))
            } else if let equals = trimmed.firstIndex(of: "=") {
                variables.append((String(trimmed[..<equals]).trimmingCharacters(in: .whitespaces),
                                  String(trimmed[trimmed.index(after: equals)...]).trimmingCharacters(in: .whitespaces)))
            } else {
                Issue.record("not a cron line: \(line)")
            }
        }
        return (variables, jobs)
    }
}
