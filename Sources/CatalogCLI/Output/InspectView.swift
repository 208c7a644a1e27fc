import CatalogCore
import Foundation

/// The `--format table` view of one object (`show`, `decode`, `stats`), for a person reading it in
/// a terminal, as ProvisionQL shows a profile: the fields as aligned `key  value` lines (absent
/// values as `–`, dates with how far away they are), then each list as its own section —
/// entitlements as `key = value`, devices one per line, certificates, locations, builds and
/// renewals as aligned rows. Nothing is printed as JSON. Given a width, every line fits it: a long
/// value continues on the next lines, under itself.
struct InspectView {
    /// When relative dates ("in 11 days") are counted from; nil leaves dates bare.
    var now: Date?
    var color: Bool

    /// Columns of the known lists; any other list of objects shows all its scalar fields.
    static let sections: [String: [Column]] = [
        "certificates": [
            Column(key: "common_name", header: "NAME"), Column(key: "certificate_type", header: "TYPE"),
            Column(key: "not_after", header: "EXPIRES", display: RelativeTime.day),
            Column(key: "days_left", header: "LEFT", display: RelativeTime.days), Column(key: "sha1", header: "SHA-1"),
        ].ranked(["common_name", "not_after", "days_left", "sha1", "certificate_type"]),
        "locations": [
            Column.host, Column(key: "path", header: "PATH"), Column(key: "container_kind", header: "IN"),
            Column(key: "first_seen", header: "FIRST SEEN", display: RelativeTime.day),
            Column(key: "last_seen", header: "LAST SEEN", display: RelativeTime.day),
            Column(key: "removed_at", header: "REMOVED", display: RelativeTime.day),
            Column(key: "error", header: "ERROR"),
        ].ranked(["path", "host", "container_kind", "removed_at", "error", "last_seen", "first_seen"]),
        "builds": [
            Column(key: "bundle_id", header: "BUNDLE ID"), Column(key: "formatted_version", header: "VERSION"),
            Column(key: "source_kind", header: "SOURCE"), Column(key: "archived_at", header: "ARCHIVED", display: RelativeTime.day),
            Column.host, Column(key: "path", header: "PATH"),
            Column(key: "launches_until", header: "LAUNCHES UNTIL", display: RelativeTime.day),
            Column(key: "signing_status", header: "SIGNING"), Column(key: "signing_certificate_name", header: "SIGNED BY"),
            Column(key: "removed_at", header: "REMOVED", display: RelativeTime.day),
        ].ranked(["bundle_id", "formatted_version", "path", "signing_status", "launches_until", "host", "source_kind",
                  "removed_at", "signing_certificate_name", "archived_at"]),
        "renewals": [
            Column(key: "relation", header: "RELATION"), Column(key: "uuid", header: "UUID"), Column(key: "name", header: "NAME"),
            Column(key: "effective_expiration_date", header: "EXPIRES", display: RelativeTime.day),
        ].ranked(["relation", "uuid", "effective_expiration_date", "name"]),
    ]

    func render(_ object: JSONValue, width: Int?) -> String {
        guard case .object(let pairs) = object else { return TextSanitizer.terminalSafe(Column.plain(object)) + "\n" }
        var scalars: [(String, String)] = []
        var sections: [(String, JSONValue)] = []
        for (key, value) in pairs {
            switch value {
            case .object(let inner) where !inner.isEmpty: sections.append((key, value))
            case .array(let items) where items.contains(where: Self.isCompound) || items.count > 6 || key == "devices":
                sections.append((key, value))
            default: scalars.append((key, text(key, value)))
            }
        }
        var out = ""
        let labelWidth = scalars.map { DisplayWidth.of($0.0) }.max() ?? 0
        let note = Column.invalidSignatureMark(object)
        for (key, value) in scalars {
            let shown = key == "name" ? (note ?? "") + value : value
            out += hanging(DisplayWidth.pad(key, labelWidth) + "  ", shown, width: width) { highlighted(key, $0) }
        }
        for (key, value) in sections {
            out += "\n" + bold(key) + "\n" + section(key, value, width: width)
        }
        return out
    }

    /// Dates shown with how far away they are ("in 11 days", "expired 3 days ago").
    static let expiryKeys: Set<String> = ["expiration_date", "effective_expiration_date", "not_after", "launches_until"]

    /// An object, or a list of objects or lists: what a view shows as a section of its own.
    static func isRecordLike(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let pairs): return !pairs.isEmpty
        case .array(let items): return items.contains(where: isCompound)
        default: return false
        }
    }

    static func isCompound(_ value: JSONValue) -> Bool {
        switch value {
        case .object, .array: return true
        default: return false
        }
    }

    /// A scalar (or short list) as text: `–` for null, lists joined with commas, dates with their
    /// distance from `now`.
    func text(_ key: String, _ value: JSONValue) -> String {
        switch value {
        case .null: return "–"
        case .array(let items): return items.isEmpty ? "–" : items.map { TextSanitizer.terminalSafe(Column.plain($0)) }.joined(separator: ", ")
        case .object: return "–"
        case .string(let text):
            if let now, Self.expiryKeys.contains(key), let date = ISO8601.parse(text) {
                return text.prefix(10) + " (" + RelativeTime.days(DaysLeft.json(until: date, from: now)) + ")"
            }
            return TextSanitizer.terminalSafe(text)
        default: return TextSanitizer.terminalSafe(Column.plain(value))
        }
    }

    func section(_ key: String, _ value: JSONValue, width: Int?) -> String {
        switch value {
        case .object(let pairs) where pairs.contains(where: { Self.isRecordLike($0.1) }):
            // A record inside the record (a build's embedded profile): its own view, indented.
            return render(value, width: width.map { $0 - 2 }).split(separator: "\n", omittingEmptySubsequences: false)
                .dropLast().drop(while: \.isEmpty).map { $0.isEmpty ? "\n" : "  " + $0 + "\n" }.joined()
        case .object(let pairs):
            // Entitlements and other dictionaries: key = value, aligned.
            let keyWidth = pairs.map { DisplayWidth.of(TextSanitizer.terminalSafe($0.0)) }.max() ?? 0
            return pairs.map { entry in
                hanging("  " + DisplayWidth.pad(TextSanitizer.terminalSafe(entry.0), keyWidth) + " = ", text(entry.0, entry.1), width: width)
            }.joined()
        case .array(let items) where items.isEmpty:
            return "  –\n"
        case .array(let items) where !items.contains(where: Self.isCompound):
            return items.map { hanging("  ", TextSanitizer.terminalSafe(Column.plain($0)), width: width) }.joined()
        case .array(var items):
            let columns = Self.sections[key] ?? Self.columns(of: items)
            // `decode` has no `days_left` of its own: counted here, as `show` counts it.
            if key == "certificates", let now {
                items = items.map { item in
                    guard item["days_left"] == nil, case .object(let pairs) = item,
                          case .string(let text)? = item["not_after"], let date = ISO8601.parse(text) else { return item }
                    return .object(pairs + [("days_left", DaysLeft.json(until: date, from: now))])
                }
            }
            let table = TableRenderer(columns: columns, width: width.map { $0 - 2 }, color: false).render(items)
            return table.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { "  " + $0 + "\n" }.joined()
        default:
            return "  " + text(key, value) + "\n"
        }
    }

    /// Every scalar key of the first item, for lists this view has no layout for.
    static func columns(of items: [JSONValue]) -> [Column] {
        guard case .object(let pairs)? = items.first else { return [] }
        return pairs.filter { !isCompound($0.1) }.map { Column(key: $0.0, header: $0.0.uppercased()) }
    }

    /// `lead` and `value` as lines of at most `width` columns: the value continues under itself;
    /// one with a word too long for that (a digest), or beside a lead that leaves it under 20
    /// columns, starts on the next line, 4 columns in, where a digest stays whole on an
    /// 80-column terminal.
    func hanging(_ lead: String, _ value: String, width: Int?, style: (String) -> String = { $0 }) -> String {
        let leadWidth = DisplayWidth.of(lead)
        guard let width, leadWidth + DisplayWidth.of(value) > width else { return lead + style(value) + "\n" }
        let longest = value.split(separator: " ").map { DisplayWidth.of(String($0)) }.max() ?? 0
        if longest <= width - leadWidth, width - leadWidth >= 20 {
            let indent = String(repeating: " ", count: leadWidth)
            return Self.wrap(value, first: width - leadWidth, rest: width - leadWidth).enumerated().map { index, line in
                (index == 0 ? lead : indent) + style(line) + "\n"
            }.joined()
        }
        let label = String(lead.reversed().drop { $0 == " " }.reversed())
        let labelLines = DisplayWidth.of(label) <= width ? [label] : Self.wrap(label, first: width, rest: width)
        return labelLines.map { $0 + "\n" }.joined()
            + Self.wrap(value, first: width - 4, rest: width - 4).map { "    " + style($0) + "\n" }.joined()
    }

    /// `text` in lines of at most `first`, then `rest`, columns: broken at spaces, a word longer
    /// than a line (a digest, a path) where the line ends.
    static func wrap(_ text: String, first: Int, rest: Int) -> [String] {
        var lines: [String] = [], line = "", limit = max(first, 1)
        func finish() {
            lines.append(line)
            line = ""
            limit = max(rest, 1)
        }
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let joined = line.isEmpty ? word : line + " " + word
            if DisplayWidth.of(joined) <= limit {
                line = joined
                continue
            }
            if !line.isEmpty { finish() }
            var remaining = word
            while DisplayWidth.of(remaining) > limit {
                let fitting = DisplayWidth.prefix(remaining, limit)
                let head = fitting.isEmpty ? String(remaining.prefix(1)) : fitting
                line = head
                remaining = String(remaining.dropFirst(head.count))
                finish()
            }
            line = remaining
        }
        lines.append(line)
        return lines
    }

    func highlighted(_ key: String, _ value: String) -> String {
        guard color, key == "effective_expiration_date" || key == "days_left" else { return value }
        if value.contains("expired") || value.hasPrefix("-") { return "\u{1B}[31m" + value + "\u{1B}[0m" }
        return value
    }

    func bold(_ text: String) -> String { color ? "\u{1B}[1m" + text + "\u{1B}[0m" : text }
}
