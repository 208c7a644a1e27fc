import CatalogCore
import Foundation

/// The report for a chat or a mail: the summary and the tables as Markdown (no HTML), each table
/// cut to `rowsPerTable` rows so the whole stays within what chats accept (a few kilobytes). Tables
/// hold what expires in the window, soonest first; what already expired is a count and the command
/// that lists it.
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
        if let run = data.failedRun {
            text += "\n**Warning: the last ingest (run \(run.runID), \(run.finishedAt.map(ISO8601.format) ?? "unfinished")) \(run.status == .partial ? "read only some of its roots" : "failed"): "
                + Self.escape((run.reason ?? "no reason recorded").replacingOccurrences(of: "\n", with: "; ")) + ".**\n"
        }
        text += "\n| Installed profiles | " + ReportData.Status.allCases.map(\.rawValue).joined(separator: " | ") + " | total |\n"
        text += "|---|" + String(repeating: "---:|", count: ReportData.Status.allCases.count + 1) + "\n"
        for (kind, counts) in data.countsByKind {
            text += "| \(kind) | " + ReportData.Status.allCases.map { String(counts[$0] ?? 0) }.joined(separator: " | ")
                + " | \(counts.values.reduce(0, +)) |\n"
        }
        text += section("Expiring within \(data.days) days", data.expiringSoon, empty: "No installed profile expires in the window.",
                        all: data.expiringProfilesCommand)
        text += "\n### Expired but still installed\n\n"
        text += expired(data.expiredInstalled.count, "installed profile has", "installed profiles have", "expired",
                        data.expiredProfilesCommand) ?? "No expired profile is installed.\n"
        text += table("Certificates by expiry", data.certificatesInWindow, empty: "No certificate in use expires in the window.",
                      all: data.expiringCertificatesCommand,
                      header: "| Expires | Days | Team | Common name | Profiles |\n|---|---:|---|---|---:|\n") { item in
            [day(item.expires), String(item.daysLeft), Self.escape(item.teamID), Self.escape(item.name), String(item.profileCount)]
        }
        text += expired(data.expiredCertificates.count, "certificate in use has", "certificates in use have", "already expired",
                        data.expiredCertificatesCommand).map { "\n" + $0 } ?? ""
        text += table("Latest build per app", data.launchingBuilds,
                      empty: data.builds.isEmpty ? "No build is catalogued." : "No app's latest build still launches.",
                      all: data.launchingBuildsCommand,
                      header: "| App | Version | Profile | Launches until | Days |\n|---|---|---|---|---:|\n") { build in
            [Self.escape(build.bundleID), Self.escape(build.version), Self.escape(build.profileKind ?? "–"),
             build.launchesUntil.map(day) ?? build.noLimitText, build.daysLeft.map(String.init) ?? "–"]
        }
        text += expired(data.expiredBuilds.count, "app's latest build no longer launches", "apps' latest builds no longer launch", nil,
                        data.expiredBuildsCommand).map { "\n" + $0 } ?? ""
        return text
    }

    /// Profiles expiring, with the renewal that supersedes them.
    func section(_ title: String, _ items: [ReportData.Item], empty: String, all: String) -> String {
        table(title, items, empty: empty, all: all,
              header: "| Expires | Days | Kind | Team | Name | Bundle id | Note |\n|---|---:|---|---|---|---|---|\n") { item in
            [day(item.expires), String(item.daysLeft), item.kind, Self.escape(item.teamID), Self.escape(item.name),
             Self.escape(item.subject), item.supersededBy.map { "superseded by `\($0.prefix(8))…`" } ?? ""]
        }
    }

    /// "N things have expired; `command` lists them.", or nil when there are none: what already
    /// expired is counted, not listed, so what still needs action is not cut off behind it.
    func expired(_ count: Int, _ one: String, _ many: String, _ verb: String?, _ command: String) -> String? {
        guard count > 0 else { return nil }
        return "\(count) \(count == 1 ? one : many)\(verb.map { " " + $0 } ?? ""); `\(command)` lists them.\n"
    }

    /// A `### title` section: `empty` when there is nothing, else the header and at most
    /// `rowsPerTable` rows of `cells`, then how many more there are.
    func table<Row>(_ title: String, _ rows: [Row], empty: String, all: String, header: String,
                    _ cells: (Row) -> [String]) -> String {
        var text = "\n### \(Self.escape(title))\n\n"
        guard !rows.isEmpty else { return text + empty + "\n" }
        text += header
        for row in rows.prefix(rowsPerTable) { text += "| " + cells(row).joined(separator: " | ") + " |\n" }
        return text + (rows.count > rowsPerTable ? "\n… and \(rows.count - rowsPerTable) more (`\(all)` lists all).\n" : "")
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
