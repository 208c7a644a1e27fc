import CatalogCore
import Foundation

/// The report for a chat or a mail: the summary and the tables as Markdown (no HTML), each table
/// cut to `rowsPerTable` rows so the whole stays within what chats accept (a few kilobytes).
struct MarkdownReport {
    var data: ReportData
    var rowsPerTable = 15

    func render() -> String {
        var text = "## Provisioning report — \(day(data.asOf))\n\n"
        text += "Window: \(data.days) days (to \(day(data.end)))\(data.teamID.map { ", team \(Self.escape($0))" } ?? "")."
        if let age = data.age(), let last = data.lastIngest {
            text += " Last successful ingest: \(ISO8601.format(last)) (\(MaxAge.describe(age)) ago).\n"
            if data.isStale { text += "\n**Warning: the catalogue is stale — check the nightly ingest.**\n" }
        } else {
            text += "\n\n**Warning: the catalogue has never been ingested successfully.**\n"
        }
        text += "\n| Installed profiles | " + ReportData.Status.allCases.map(\.rawValue).joined(separator: " | ") + " | total |\n"
        text += "|---|" + String(repeating: "---:|", count: ReportData.Status.allCases.count + 1) + "\n"
        for (kind, counts) in data.countsByKind {
            text += "| \(kind) | " + ReportData.Status.allCases.map { String(counts[$0] ?? 0) }.joined(separator: " | ")
                + " | \(counts.values.reduce(0, +)) |\n"
        }
        text += section("Expiring within \(data.days) days", data.expiringSoon, empty: "No installed profile expires in the window.")
        text += section("Expired but still installed", data.expiredInstalled, empty: "No expired profile is installed.")
        text += table("Certificates by expiry", data.certificates, empty: "No certificate in use expires by \(day(data.end)).",
                      header: "| Expires | Days | Team | Common name | Profiles |\n|---|---:|---|---|---:|\n") { item in
            [day(item.expires), String(item.daysLeft), Self.escape(item.teamID), Self.escape(item.name), String(item.profileCount)]
        }
        text += table("Latest build per app", data.builds, empty: "No build is catalogued.",
                      header: "| App | Version | Profile | Launches until | Days |\n|---|---|---|---|---:|\n") { build in
            [Self.escape(build.bundleID), Self.escape(build.version), Self.escape(build.profileKind ?? "–"),
             build.launchesUntil.map(day) ?? "–", build.daysLeft.map(String.init) ?? "–"]
        }
        return text
    }

    /// Profiles expiring or expired, with the renewal that supersedes them.
    func section(_ title: String, _ items: [ReportData.Item], empty: String) -> String {
        table(title, items, empty: empty,
              header: "| Expires | Days | Kind | Team | Name | Bundle id | Note |\n|---|---:|---|---|---|---|---|\n") { item in
            [day(item.expires), String(item.daysLeft), item.kind, Self.escape(item.teamID), Self.escape(item.name),
             Self.escape(item.subject), item.supersededBy.map { "superseded by `\($0.prefix(8))…`" } ?? ""]
        }
    }

    /// A `### title` section: `empty` when there is nothing, else the header and at most
    /// `rowsPerTable` rows of `cells`, then how many more there are.
    func table<Row>(_ title: String, _ rows: [Row], empty: String, header: String, _ cells: (Row) -> [String]) -> String {
        var text = "\n### \(Self.escape(title))\n\n"
        guard !rows.isEmpty else { return text + empty + "\n" }
        text += header
        for row in rows.prefix(rowsPerTable) { text += "| " + cells(row).joined(separator: " | ") + " |\n" }
        return text + more(rows.count)
    }

    func more(_ count: Int) -> String {
        count > rowsPerTable ? "\n… and \(count - rowsPerTable) more (`catalog expiring` lists all).\n" : ""
    }

    func day(_ date: Date) -> String { String(ISO8601.format(date).prefix(10)) }

    /// Text from files made inert in Markdown: characters that start markup or end a table cell are
    /// backslash-escaped, `<` and `>` included so no HTML can reach a renderer, line breaks folded.
    static func escape(_ value: String) -> String {
        var out = ""
        for character in TextSanitizer.terminalSafe(value) {
            if "\\`*_[]<>|#!~".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
