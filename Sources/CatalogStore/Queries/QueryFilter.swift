import CatalogCore
import Foundation

/// The WHERE clause of a query assembled from constant SQL fragments chosen by the caller's
/// filters; every value is a bound parameter, never text spliced into the SQL.
struct QueryFilter {
    private(set) var clauses: [String] = []
    private(set) var parameters: [SQLValue] = []

    /// Adds `fragment` (with `?` placeholders) and its values.
    mutating func add(_ fragment: StaticString, _ values: SQLValue...) {
        clauses.append(fragment.description)
        parameters.append(contentsOf: values)
    }

    /// Adds a fragment an ``SQLDialect`` spelled for its engine (from constant SQL) and its values.
    mutating func add(_ fragment: SQLFragment, _ values: SQLValue...) {
        clauses.append(fragment.sql)
        parameters.append(contentsOf: values)
    }

    /// ``add(_:_:)-(SQLFragment,_)`` with its values as an array.
    mutating func add(_ fragment: SQLFragment, _ values: [SQLValue]) {
        clauses.append(fragment.sql)
        parameters.append(contentsOf: values)
    }

    var sql: String { clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ") }
}
