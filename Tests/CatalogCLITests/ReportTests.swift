import CatalogTestSupport
import Foundation
import Testing

/// `catalog report` rendered in a real browser (headless Chromium): the DOM holds the expected
/// rows and lane labels, hostile names stay text, and the screenshot is not blank. Markdown too.
@Suite(.timeLimit(.minutes(10))) struct ReportTests {
    typealias Catalogue = QueryCommandTests.Catalogue

    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    static let hostileName = "<script>document.title='pwned'</script> & \"Quotes\" <b>bold</b>"
    static let arguments = ["--as-of", "2026-11-20", "--days", "90"]

    /// Runs headless Chromium on a file; returns stdout.
    static func chromium(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(chromium))
        let scratch = try Scratch()
        let profile = scratch.path
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
                             "--user-data-dir=\(profile)", "--virtual-time-budget=2000"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    /// Skipped with a reason where Chromium is missing, but never under `.ci/run`, which must run it.
    static let canRender = chromium != nil || TestPaths.toolsRequired

    @Test(.enabled(if: canRender, "needs Chromium (Debian package chromium; .ci/run installs it)"))
    func theHTMLReportRendersInABrowser() throws {
        let catalogue = try Catalogue()
        let file = catalogue.folder + "/report.html"
        let result = try catalogue.run(["report", "--html", file] + Self.arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!html.contains("<script"), "no script of ours, and none from a file")
        #expect(!html.contains("http://") || html.components(separatedBy: "http://").dropFirst().allSatisfy { $0.hasPrefix("www.w3.org/2000/svg") },
                "nothing fetched")

        let dom = try Self.chromium(["--dump-dom", "file://" + file])
        #expect(dom.contains("<title>Provisioning report — 2026-11-20</title>"), "the hostile title did not run")
        #expect(!dom.contains("pwned</title>"))
        // Rows: expiring soon, expired but installed, certificates, latest builds.
        #expect(dom.contains("<tr data-uuid=\"080B4AFF-C595-4955-AEED-8B8810E698FC\" class=\"window\">"))
        #expect(dom.contains("<tr data-uuid=\"44C6C3D6-6720-46AD-AD64-9FC192DFFA1E\" class=\"window superseded\">"))
        #expect(dom.contains("<tr data-uuid=\"B426B646-3C57-48D1-AA9E-D2ACBAFBB8C6\" class=\"expired\">"))
        #expect(dom.contains("data-sha1="))
        #expect(dom.contains("<tr data-bundle-id=\"com.example.app\""))
        // Lanes: one per team and app, and the hostile one as text.
        #expect(dom.contains("data-lane=\"TEAM123456 · com.example.app\""))
        #expect(dom.contains("data-lane=\"ENTRP12345 · com.example.enterprise\""))
        #expect(dom.contains("<details id=\"expired\">"), "what has expired is folded away")
        #expect(dom.contains("&lt;script&gt;document.title='pwned'&lt;/script&gt; &amp; \"Quotes\" &lt;b&gt;bold&lt;/b&gt;"),
                "the hostile name renders as text")
        #expect(dom.contains("com.example.hostile&lt;img src=x onerror=alert(1)&gt;"))
        #expect(!dom.contains("<img"), "no element made from a file's text")
        #expect(!dom.contains("<b>bold</b>"))
    }

    @Test(.enabled(if: canRender, "needs Chromium (Debian package chromium; .ci/run installs it)"))
    func theScreenshotIsNotBlank() throws {
        let catalogue = try Catalogue()
        let file = catalogue.folder + "/report.html"
        #expect(try catalogue.run(["report", "--html", file] + Self.arguments).status == 0)
        let png = catalogue.folder + "/report.png"
        _ = try Self.chromium(["--window-size=1200,1600", "--screenshot=\(png)", "file://" + file])
        let colours = try Self.distinctColours(png)
        #expect(colours >= 8, "a blank page has one or two colours; this one has \(colours)")
    }

    /// Distinct RGB colours in a PNG, counted by Python's zlib (no imaging library needed).
    static func distinctColours(_ png: String) throws -> Int {
        let script = """
            import struct, sys, zlib
            data = open(sys.argv[1], 'rb').read()
            assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n', 'not a PNG'
            pos, idat, w, h, ct = 8, b'', 0, 0, 0
            while pos < len(data):
                n, kind = struct.unpack('>I4s', data[pos:pos + 8]); body = data[pos + 8:pos + 8 + n]; pos += 12 + n
                if kind == b'IHDR': w, h, depth, ct = struct.unpack('>IIBB', body[:10])
                if kind == b'IDAT': idat += body
            bpp = {2: 3, 6: 4}[ct]; raw = zlib.decompress(idat); stride = w * bpp
            prev = bytearray(stride); seen = set(); i = 0
            for y in range(h):
                f = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
                for x in range(stride):
                    a = line[x - bpp] if x >= bpp else 0; b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
                    if f == 1: line[x] = (line[x] + a) & 255
                    elif f == 2: line[x] = (line[x] + b) & 255
                    elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
                    elif f == 4:
                        p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                        line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
                if y % 4 == 0:
                    for x in range(0, stride, bpp * 2): seen.add(bytes(line[x:x + 3]))
                prev = line
            print(len(seen))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, png]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// A folder holding a profile whose name and bundle id are single words far wider than a
    /// page, and an app that embeds it: what a table must wrap rather than overflow.
    static func wideTree() throws -> String {
        let folder = TestPaths.temporary + "catalog-wide-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/Wide.app", withIntermediateDirectories: true)
        let bundleID = "com.example." + String(repeating: "averyveryverylongbundleidentifier", count: 4)
        let profile = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
            <key>AppIDName</key><string>Wide</string>
            <key>ApplicationIdentifierPrefix</key><array><string>TEAM123456</string></array>
            <key>CreationDate</key><date>2026-01-15T10:00:00Z</date>
            <key>Entitlements</key><dict><key>application-identifier</key><string>TEAM123456.\(bundleID)</string></dict>
            <key>ExpirationDate</key><date>2026-12-10T10:00:00Z</date>
            <key>Name</key><string>\(String(repeating: "NightlyDistributionProfileForTheWholeTeam", count: 4))</string>
            <key>ProvisionedDevices</key><array><string>00008030-001A2B3C4D5E6F70</string></array>
            <key>TeamIdentifier</key><array><string>TEAM123456</string></array>
            <key>TeamName</key><string>Example Corp</string>
            <key>UUID</key><string>0D5E1A7C-5B7E-4D0A-9C55-6E7A1D2B3C4F</string>
            <key>Version</key><integer>1</integer>
            </dict></plist>
            """
        let info = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
            <key>CFBundleExecutable</key><string>Wide</string>
            <key>CFBundleIdentifier</key><string>\(bundleID)</string>
            <key>CFBundlePackageType</key><string>APPL</string>
            <key>CFBundleShortVersionString</key><string>1.0</string>
            <key>CFBundleVersion</key><string>1</string>
            </dict></plist>
            """
        try profile.write(toFile: folder + "/Wide.mobileprovision", atomically: true, encoding: .utf8)
        try profile.write(toFile: folder + "/Wide.app/embedded.mobileprovision", atomically: true, encoding: .utf8)
        try info.write(toFile: folder + "/Wide.app/Info.plist", atomically: true, encoding: .utf8)
        try "#!/bin/sh\n".write(toFile: folder + "/Wide.app/Wide", atomically: true, encoding: .utf8)
        return folder
    }

    /// At 1280 px no table (nor the page) is wider than the window, with the folded group open
    /// and names and bundle ids longer than any line: measured in Chromium by a script added to a
    /// copy of the page (the report itself has none), and screenshotted at that width.
    @Test(.enabled(if: canRender, "needs Chromium (Debian package chromium; .ci/run installs it)"), .timeLimit(.minutes(10)))
    func noTableOverflowsA1280PixelWindow() throws {
        let wide = try Self.wideTree()
        defer { try? FileManager.default.removeItem(atPath: wide) }
        let catalogue = try Catalogue(ingesting: [CatalogProcess.fixtures, wide])
        let file = catalogue.folder + "/report.html"
        #expect(try catalogue.run(["report", "--html", file] + Self.arguments).status == 0)
        let html = try String(contentsOfFile: file, encoding: .utf8)
        #expect(html.contains("NightlyDistributionProfileForTheWholeTeamNightly"), "the wide profile is in the window")
        let measure = """
            <script>window.addEventListener('load', () => {
              const width = document.documentElement.clientWidth, lines = ['page ' + document.documentElement.scrollWidth + ' ' + width];
              for (const table of document.querySelectorAll('table')) {
                lines.push((table.closest('section') || {}).id + ' ' + Math.ceil(table.getBoundingClientRect().right) + ' ' + width);
              }
              const out = document.createElement('pre'); out.id = 'measured'; out.textContent = lines.join('\\n'); document.body.appendChild(out);
            });</script>
            """
        let measured = catalogue.folder + "/measured.html"
        try html.replacingOccurrences(of: "<details id=\"expired\">", with: "<details id=\"expired\" open>")
            .replacingOccurrences(of: "</body>", with: measure + "</body>").write(toFile: measured, atomically: true, encoding: .utf8)
        let dom = try Self.chromium(["--window-size=1280,2000", "--dump-dom", "file://" + measured])
        let start = try #require(dom.range(of: "<pre id=\"measured\">")), end = try #require(dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex))
        let lines = dom[start.upperBound..<end.lowerBound].split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(lines.count >= 5, "the page, and the tables in and out of the folded group: \(lines)")
        for line in lines {
            #expect(line.count == 3 && (Int(line[1]) ?? .max) <= (Int(line[2]) ?? 0), "\(line.joined(separator: " ")) (right edge, window)")
        }
        let png = catalogue.folder + "/report.png"
        _ = try Self.chromium(["--window-size=1280,1600", "--screenshot=\(png)", "file://" + file])
        #expect(try Self.distinctColours(png) >= 8)
    }

    /// The groups of the HTML page's folded "Already expired": the UUIDs, SHA-1s and bundle ids of its rows.
    static func expiredGroup(_ html: String) -> (profiles: Set<String>, certificates: Set<String>, builds: Set<String>) {
        guard let start = html.range(of: "<details id=\"expired\">") else { return ([], [], []) }
        let group = html[start.lowerBound...].components(separatedBy: "</details>")[0]
        func values(_ attribute: String) -> Set<String> {
            Set(group.components(separatedBy: attribute + "=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) })
        }
        return (values("data-uuid"), values("data-sha1"), values("data-bundle-id"))
    }

    /// What has already expired is counted, not listed, in Markdown, with a command that lists it:
    /// each command, run, lists exactly the items of its group on the HTML page.
    @Test(arguments: [["--as-of", "2026-11-20", "--days", "90"], ["--as-of", "2027-07-01", "--days", "90"],
                      ["--as-of", "2027-07-01", "--days", "90", "--team", "TEAM123456"]])
    func eachExpiredCountNamesACommandThatListsIt(arguments: [String]) throws {
        let catalogue = try Catalogue()
        try Self.checkExpiredCommands(catalogue, arguments)
    }

    static func checkExpiredCommands(_ catalogue: Catalogue, _ arguments: [String]) throws {
        let markdown = try catalogue.run(["report"] + arguments).stdout
        let html = try catalogue.run(["report", "--format", "html"] + arguments).stdout
        let expired = Self.expiredGroup(html)
        #expect(!expired.profiles.isEmpty && !expired.certificates.isEmpty, "the fixtures have expired profiles and certificates")
        // "N things have expired; `catalog …` lists them."
        let counted = markdown.split(separator: "\n").filter { $0.hasSuffix("` lists them.") }.map { line -> (Int, [String]) in
            let command = line.components(separatedBy: "`")[1].split(separator: " ").map(String.init)
            return (Int(line.prefix { $0.isNumber }) ?? -1, Array(command.dropFirst()))
        }
        #expect(counted.count == (expired.builds.isEmpty ? 2 : 3), "\(markdown)")
        for (count, command) in counted {
            #expect(command.contains("--as-of") && command.contains(arguments[1]))
            let records = try catalogue.records(command)
            switch command[0] {
            case "profiles":
                #expect(Set(records.compactMap { $0["uuid"] as? String }) == expired.profiles, "\(command)")
                #expect(count == expired.profiles.count)
            case "certificates":
                #expect(command.starts(with: ["certificates", "--in-use", "--expired"]))
                #expect(Set(records.compactMap { $0["sha1"] as? String }) == expired.certificates, "\(command)")
                #expect(count == expired.certificates.count)
                #expect(records.allSatisfy { ($0["days_left"] as? Int ?? 0) < 0 })
            default:
                #expect(command.starts(with: ["builds", "--latest", "--expired"]))
                #expect(Set(records.compactMap { $0["bundle_id"] as? String }) == expired.builds, "\(command)")
                #expect(count == expired.builds.count && records.count == count)
            }
        }
    }

    /// The Markdown certificates table starts with what expires in the window, soonest first,
    /// and holds nothing already expired; the timeline draws no expired item.
    @Test func theReportLeadsWithWhatExpiresInTheWindow() throws {
        let catalogue = try Catalogue()
        let arguments = ["--as-of", "2027-07-01", "--days", "90"]
        let markdown = try catalogue.run(["report"] + arguments).stdout
        let certificates = markdown.components(separatedBy: "### Certificates by expiry")[1].components(separatedBy: "###")[0]
        let rows = certificates.split(separator: "\n").filter { $0.hasPrefix("| 2") }
        #expect(rows.first?.contains("Featherstonehaugh-Worthington") == true, "the certificate expiring in 70 days first: \(certificates)")
        #expect(rows.allSatisfy { Int($0.split(separator: "|")[1].trimmingCharacters(in: .whitespaces)).map { (0...90).contains($0) } == true })
        #expect(certificates.contains("certificates in use have already expired; `catalog certificates --in-use --expired --as-of 2027-07-01` lists them."))
        let html = try catalogue.run(["report", "--format", "html"] + arguments).stdout
        let timeline = html.components(separatedBy: "<section id=\"timeline\">")[1].components(separatedBy: "</section>")[0]
        #expect(!timeline.contains("mark expired"), "nothing expired on the timeline")
        #expect(timeline.contains("data-lane=\"TEAM123456 · certificates\""), "the certificate in the window is")
        #expect(!timeline.contains("com.example.early"), "the profile that expired in 2026 has no lane")
        let group = html.components(separatedBy: "<details id=\"expired\">")
        #expect(group.count == 2, "one folded group, closed")
        #expect(group[0].components(separatedBy: "class=\"expired").count == 1, "no expired row before it")
        #expect(group[1].contains("<tr data-uuid=\"B426B646-3C57-48D1-AA9E-D2ACBAFBB8C6\" class=\"expired\">"))
    }

    /// On the real corpus (when present) too: what expires in the window is shown, and each
    /// command lists what it counts.
    @Test(.enabled(if: CatalogProcess.realCorpus != nil, "needs ../shared/real-corpus"))
    func theRealCorpusReportShowsItsWindow() throws {
        let catalogue = try Catalogue(ingesting: [CatalogProcess.fixtures, try #require(CatalogProcess.realCorpus)])
        let arguments = ["--as-of", "2026-11-29", "--days", "90"]
        try Self.checkExpiredCommands(catalogue, arguments)
        let inWindow = try catalogue.records(["expiring", "--include-superseded"] + arguments)
            .filter { $0["type"] as? String == "certificate" }.compactMap { $0["common_name"] as? String }
        let markdown = try catalogue.run(["report"] + arguments).stdout
        let certificates = markdown.components(separatedBy: "### Certificates by expiry")[1].components(separatedBy: "###")[0]
            .replacingOccurrences(of: "\\", with: "")
        #expect(!inWindow.isEmpty, "the corpus has a certificate expiring within 90 days of 2026-11-29")
        for name in inWindow.prefix(10) {
            #expect(certificates.contains(name), "\(name) expires in the window and is shown")
        }
    }

    @Test func theMarkdownReportIsTextOnlyAndChatSized() throws {
        let catalogue = try Catalogue()
        let result = try catalogue.run(["report"] + Self.arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let markdown = result.stdout
        #expect(markdown.hasPrefix("## Provisioning report — 2026-11-20"))
        for heading in ["### Expiring within 90 days", "### Expired but still installed", "### Certificates by expiry",
                        "### Latest build per app"] {
            #expect(markdown.contains(heading), "\(heading)")
        }
        #expect(markdown.contains("| 2026-12-01 | 11 | ad-hoc | TEAM123456 | Example App AdHoc | com.example.app |  |"))
        #expect(markdown.contains("superseded by `4AA98B40…`"))
        let characters = Array(markdown)
        let bare = characters.indices.filter { characters[$0] == "<" && ($0 == 0 || characters[$0 - 1] != "\\") }
        #expect(bare.isEmpty, "no HTML: every < from a file is escaped")
        #expect(markdown.contains("\\<script\\>"))
        #expect(markdown.utf8.count < 12_000, "\(markdown.utf8.count) bytes")
        let html = try catalogue.run(["report", "--format", "html"] + Self.arguments)
        #expect(html.stdout.hasPrefix("<!DOCTYPE html>"))
        #expect(try catalogue.run(["report", "--html", catalogue.folder + "/x.html", "--format", "html"]).status == 64)
        // Issue 52 §9: a zero count is not coloured as an alarm; a count of something is.
        #expect(!html.stdout.contains("-text\">0</td>"), "a coloured zero")
        #expect(html.stdout.contains("-text\">"), "coloured counts")
    }

    @Test func aStaleCatalogueIsWarnedAbout() throws {
        let catalogue = try Catalogue()
        try StalenessTests.age(catalogue, days: 9)
        let markdown = try catalogue.run(["report"] + Self.arguments).stdout
        #expect(markdown.contains("**Warning: the catalogue is stale"))
        let html = try catalogue.run(["report", "--format", "html"] + Self.arguments).stdout
        #expect(html.contains("class=\"warning\" role=\"alert\">The catalogue is stale"))
    }
}
