import CatalogTestSupport
import Foundation
import Testing

/// `catalog report` rendered in a real browser (headless Chromium): the DOM holds the expected
/// rows and lane labels, hostile names stay text, and the screenshot is not blank. Markdown too.
@Suite struct ReportTests {
    typealias Catalogue = QueryCommandTests.Catalogue

    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    static let hostileName = "<script>document.title='pwned'</script> & \"Quotes\" <b>bold</b>"
    static let arguments = ["--as-of", "2026-11-20", "--days", "90"]

    /// Runs headless Chromium on a file; returns stdout.
    static func chromium(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(chromium))
        let profile = TestPaths.temporary + "catalog-chromium-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: profile) }
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
        #expect(dom.contains("data-lane=\"TEAM123456 · certificates\""))
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
