import Foundation

/// One result row, copied out of the statement so it outlives the next step.
/// Accessors return nil for NULL, a missing column or an unrelated storage class; they never trap.
package struct Row: Equatable, Sendable {
    package let columns: [String]
    package let values: [SQLValue]

    package init(columns: [String], values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    /// The value at a 0-based column index, `.null` when out of range.
    package subscript(index: Int) -> SQLValue {
        values.indices.contains(index) ? values[index] : .null
    }

    /// The value of the first column with this name (case-sensitive), `.null` when there is none.
    package subscript(name: String) -> SQLValue {
        columns.firstIndex(of: name).map { values[$0] } ?? .null
    }

    package func int64(_ column: String) -> Int64? { self[column].int64 }
    package func int(_ column: String) -> Int? { self[column].int }
    package func double(_ column: String) -> Double? { self[column].double }
    package func bool(_ column: String) -> Bool? { self[column].bool }
    package func string(_ column: String) -> String? { self[column].string }
    package func blob(_ column: String) -> [UInt8]? { self[column].blob }
    package func date(_ column: String) -> Date? { self[column].date }
}
