import CatalogCore
import Foundation

/// A record a listing prints: as a ``JSONValue`` (tables, CSV), or member by member straight into
/// bytes (JSON, NDJSON) — the same members, listed once by ``output(now:into:)``.
protocol StreamedRecord {
    func output(now: Date) -> JSONValue
    func output<Fields: JSONFields>(now: Date, into fields: inout Fields)
}
