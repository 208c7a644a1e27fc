import CatalogCore

/// A column of a table or CSV: which record key, its header, and how a table shows it.
struct Column: Sendable {
    var key: String
    var header: String
    /// Table rendering of the value; CSV and JSON use the value itself.
    var display: @Sendable (JSONValue) -> String = Column.plain
    /// Keys read when the record has no `key`: one column for the same fact under each kind of
    /// row's own name (a certificate's `not_after` beside a profile's effective expiry).
    var alternatives: [String] = []
    /// A table leaves this column out when no row has a value in it (CSV always has it): the host
    /// column of a one-host SQLite catalogue, whose host is unnamed (null).
    var tableOnlyWhenSet = false
    /// Text a table puts before this column's value in some rows, from the whole record: CSV and
    /// JSON carry that fact under its own key, which a narrow table may drop.
    var mark: (@Sendable (JSONValue) -> String?)? = nil

    /// This column's value in `record`: its key, else the first alternative the record has.
    func value(in record: JSONValue) -> JSONValue {
        if let value = record[key] { return value }
        for alternative in alternatives { if let value = record[alternative] { return value } }
        return .null
    }

    /// What a table shows in this column for `record`: ``mark`` and the displayed value.
    func tableText(in record: JSONValue) -> String {
        let text = display(value(in: record))
        guard let note = mark?(record) else { return text }
        return note + text
    }

    /// Before the name of a profile whose signature is `invalid` (its content or signature changed
    /// after signing), in every table of profiles, so that it never reads as an ordinary row.
    static let invalidSignatureNote = "[tampered] "

    /// ``invalidSignatureNote`` for a record whose `signature` is `invalid`.
    @Sendable static func invalidSignatureMark(_ record: JSONValue) -> String? {
        record["signature"] == .string(ProfileSignature.Status.invalid.rawValue) ? invalidSignatureNote : nil
    }

    /// How a narrow table may shorten this column's text, nil when never: identifiers (a UUID,
    /// digest or UDID cut could name another row), dates and counts. Free text keeps its start,
    /// paths what differs between rows (``PathCut``), lists their first items and their count
    /// (`1, 2, … (9)`), bundle ids (only when nothing else is left to cut) both ends
    /// (`com.ex…app.widget`).
    var cut: DisplayWidth.Cut? {
        switch key {
        case "path", "app_path": return .path
        case "bundle_id": return .middle
        case "build_numbers", "roots", "sources", "platforms": return .list
        case "name", "common_name", "message", "reason", "signature_reason", "certificate_type", "kind", "error",
             "formatted_version", "signing_status", "signing_certificate_name", "signer_name", "profile_name",
             "launches_until_reason": return .end
        default: return nil
        }
    }

    /// How much a narrow table wants this column: the lowest goes first when the table cannot fit
    /// otherwise. Each command ranks its columns by what it answers (``ranked(_:)``); these are the
    /// defaults for lists without a ranking.
    var priority: Int { priorityOverride ?? Column.priorities[key] ?? 50 }
    var priorityOverride: Int? = nil

    /// The `host` column (before `path`): a table shows it only when some row names a host.
    static let host = Column(key: "host", header: "HOST", tableOnlyWhenSet: true)

    static let priorities: [String: Int] = [
        "uuid": 98, "sha1": 98, "udid": 98, "action": 97, "name": 96, "common_name": 96, "bundle_id": 95,
        "formatted_version": 94, "short_version": 94, "effective_expiration_date": 92, "not_after": 92,
        "launches_until": 91, "id": 90, "status": 89, "path": 85, "host": 84, "days_left": 80, "reason": 78, "build_numbers": 75, "run_id": 90,
        "started_at": 74, "kind": 60, "certificate_type": 58, "profile_kind": 57, "type": 55, "team_id": 50,
        "source_kind": 45, "bundle_id_match": 44, "superseded_by": 42, "profile_uuid": 40, "removed_at": 38,
        "profile_count": 30, "archived_at": 28, "message": 26, "roots": 25, "first_seen": 22, "errors": 21,
        "last_seen": 18, "expiry_cause": 16, "launches_until_cause": 14, "first_archived_at": 12, "last_archived_at": 12,
    ]

    @Sendable static func plain(_ value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case .string(let text): return text
        case .bool(let flag): return flag ? "yes" : "no"
        case .int(let number): return String(number)
        case .double(let number): return String(number)
        case .array(let items): return items.map(plain).joined(separator: ", ")
        case .object: return value.serialized()
        }
    }
}

extension Array where Element == Column {
    /// These columns ranked for a narrow table by `keys`, the most wanted first: the last listed
    /// is the first dropped (an unlisted column before any listed one).
    func ranked(_ keys: [String]) -> [Column] {
        map { column in
            var column = column
            column.priorityOverride = keys.firstIndex(of: column.key).map { 1_000 - $0 * 10 } ?? 0
            return column
        }
    }
}
