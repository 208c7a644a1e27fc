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
        text += "\n### Certificates by expiry\n\n"
        if data.certificates.isEmpty {
            text += "No certificate in use expires by \(day(data.end)).\n"
        } else {
            text += "| Expires | Days | Team | Common name | Profiles |\n|---|---:|---|---|---:|\n"
            for item in data.certificates.prefix(rowsPerTable) {
                text += "| \(day(item.expires)) | \(item.daysLeft) | \(Self.escape(item.teamID)) | \(Self.escape(item.name)) | \(item.profileCount) |\n"
            }
            text += more(data.certificates.count)
        }
        text += "\n### Latest build per app\n\n"
        if data.builds.isEmpty {
            text += "No build is catalogued.\n"
        } else {
            text += "| App | Version | Profile | Launches until | Days |\n|---|---|---|---|---:|\n"
            for build in data.builds.prefix(rowsPerTable) {
                text += "| \(Self.escape(build.bundleID)) | \(Self.escape(build.version)) | \(Self.escape(build.profileKind ?? "–")) | "
                    + "\(build.launchesUntil.map(day) ?? "–") | \(build.daysLeft.map(String.init) ?? "–") |\n"
            }
            text += more(data.builds.count)
        }
        return text
    }

    func section(_ title: String, _ items: [ReportData.Item], empty: String) -> String {
        var text = "\n### \(Self.escape(title))\n\n"
        guard !items.isEmpty else { return text + empty + "\n" }
        text += "| Expires | Days | Kind | Team | Name | Bundle id | Note |\n|---|---:|---|---|---|---|---|\n"
        for item in items.prefix(rowsPerTable) {
            let note = item.supersededBy.map { "superseded by `\($0.prefix(8))…`" } ?? ""
            text += "| \(day(item.expires)) | \(item.daysLeft) | \(item.kind) | \(Self.escape(item.teamID)) | \(Self.escape(item.name)) | "
                + "\(Self.escape(item.subject)) | \(note) |\n"
        }
        return text + more(items.count)
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
