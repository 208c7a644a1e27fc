import Foundation

/// One result row, copied out of the statement so it outlives the next step.
/// Accessors return nil for NULL, a missing column or an unrelated storage class; they never trap.
package struct Row: Equatable, Sendable {
    package let names: ColumnNames
    package let values: [SQLValue]

    package var columns: [String] { names.names }

    package init(columns: [String], values: [SQLValue]) {
        self.init(names: ColumnNames(columns), values: values)
    }

    /// A row of a statement whose names are shared by all its rows.
    package init(names: ColumnNames, values: [SQLValue]) {
        self.names = names
        self.values = values
    }

    package static func == (lhs: Row, rhs: Row) -> Bool {
        lhs.values == rhs.values && (lhs.names === rhs.names || lhs.columns == rhs.columns)
    }

    /// The value at a 0-based column index, `.null` when out of range.
    package subscript(index: Int) -> SQLValue {
        values.indices.contains(index) ? values[index] : .null
    }

    /// The value of the first column with this name (case-sensitive), `.null` when there is none.
    package subscript(name: String) -> SQLValue {
        names.position(of: name).map { self[$0] } ?? .null
    }

    package func int64(_ column: String) -> Int64? { self[column].int64 }
    package func int(_ column: String) -> Int? { self[column].int }
    package func double(_ column: String) -> Double? { self[column].double }
    package func bool(_ column: String) -> Bool? { self[column].bool }
    package func string(_ column: String) -> String? { self[column].string }
    package func blob(_ column: String) -> [UInt8]? { self[column].blob }
    package func date(_ column: String) -> Date? { self[column].date }
}
