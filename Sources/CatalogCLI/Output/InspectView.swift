import CatalogCore
import Foundation

/// The `--format table` view of one object (`show`, `decode`, `stats`), for a person reading it in
/// a terminal, as ProvisionQL shows a profile: the fields as aligned `key  value` lines (absent
/// values as `–`, dates with how far away they are), then each list as its own section —
/// entitlements as `key = value`, devices one per line, certificates, locations, builds and
/// renewals as aligned rows. Nothing is printed as JSON.
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
        ],
        "locations": [
            Column.host, Column(key: "path", header: "PATH"), Column(key: "container_kind", header: "IN"),
            Column(key: "first_seen", header: "FIRST SEEN", display: RelativeTime.day),
            Column(key: "last_seen", header: "LAST SEEN", display: RelativeTime.day),
            Column(key: "removed_at", header: "REMOVED", display: RelativeTime.day),
            Column(key: "error", header: "ERROR"),
        ],
        "builds": [
            Column(key: "bundle_id", header: "BUNDLE ID"), Column(key: "formatted_version", header: "VERSION"),
            Column(key: "source_kind", header: "SOURCE"), Column(key: "archived_at", header: "ARCHIVED", display: RelativeTime.day),
            Column.host, Column(key: "path", header: "PATH"),
            Column(key: "removed_at", header: "REMOVED", display: RelativeTime.day),
        ],
        "renewals": [
            Column(key: "relation", header: "RELATION"), Column(key: "uuid", header: "UUID"), Column(key: "name", header: "NAME"),
            Column(key: "effective_expiration_date", header: "EXPIRES", display: RelativeTime.day),
        ],
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
            out += DisplayWidth.pad(key, labelWidth) + "  " + highlighted(key, shown) + "\n"
        }
        for (key, value) in sections {
            out += "\n" + bold(key) + "\n" + section(key, value, width: width)
        }
        return out
    }

    /// Dates shown with how far away they are ("in 11 days", "expired 3 days ago").
    static let expiryKeys: Set<String> = ["expiration_date", "effective_expiration_date", "not_after", "launches_until"]

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
        case .object(let pairs):
            // Entitlements and other dictionaries: key = value, aligned.
            let keyWidth = pairs.map { DisplayWidth.of(TextSanitizer.terminalSafe($0.0)) }.max() ?? 0
            return pairs.map { entry in
                "  " + DisplayWidth.pad(TextSanitizer.terminalSafe(entry.0), keyWidth) + " = " + text(entry.0, entry.1) + "\n"
            }.joined()
        case .array(let items) where items.isEmpty:
            return "  –\n"
        case .array(let items) where !items.contains(where: Self.isCompound):
            return items.map { "  " + TextSanitizer.terminalSafe(Column.plain($0)) + "\n" }.joined()
        case .array(let items):
            let columns = Self.sections[key] ?? Self.columns(of: items)
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

    func highlighted(_ key: String, _ value: String) -> String {
        guard color, key == "effective_expiration_date" || key == "days_left" else { return value }
        if value.contains("expired") || value.hasPrefix("-") { return "\u{1B}[31m" + value + "\u{1B}[0m" }
        return value
    }

    func bold(_ text: String) -> String { color ? "\u{1B}[1m" + text + "\u{1B}[0m" : text }
}
