/// A result's column names and where each first occurs, made once per statement and shared by all
/// of its rows: a listing looks up two dozen columns by name in every row, and comparing the name
/// with each column in turn was an eighth of what `profiles --json` did after its first row.
package final class ColumnNames: Sendable {
    package let names: [String]
    private let positions: [String: Int]

    package init(_ names: [String]) {
        self.names = names
        var positions: [String: Int] = [:]
        positions.reserveCapacity(names.count)
        for (position, name) in names.enumerated() where positions[name] == nil {
            positions[name] = position
        }
        self.positions = positions
    }

    /// The position of the first column with this name (case-sensitive).
    package func position(of name: String) -> Int? { positions[name] }
}
