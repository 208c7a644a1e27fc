import CatalogCore

/// Aligned columns for people: headers, cells made terminal-safe, and the widest free-text column
/// (name, path, …) shortened with `…` until the table fits the terminal. UUIDs, dates and counts
/// keep their width: a table too wide even then wraps rather than lose an identifier.
struct TableRenderer {
    var columns: [Column]
    var width: Int?
    var color: Bool

    func render(_ records: [JSONValue]) -> String {
        var rows: [[String]] = records.map { record in
            columns.map { TextSanitizer.terminalSafe($0.display(record[$0.key] ?? .null)) }
        }
        let headers = columns.map(\.header)
        var widths = headers.map(\.count)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        if let width {
            let separators = 2 * (columns.count - 1)
            let shrinkable = columns.indices.filter { columns[$0].isShrinkable }
            while widths.reduce(0, +) + separators > width {
                guard let widest = shrinkable.max(by: { widths[$0] < widths[$1] }), widths[widest] > 12 else { break }
                widths[widest] -= 1
            }
            rows = rows.map { row in
                row.enumerated().map { index, cell in
                    Self.fit(cell, widths[index], keepEnd: columns[index].key == "path" || columns[index].key == "roots")
                }
            }
        }
        var out = line(headers.enumerated().map { Self.fit($1, widths[$0]) }, widths)
        if color { out = "\u{1B}[1m" + out.dropLast() + "\u{1B}[0m\n" }
        for row in rows { out += line(row, widths) }
        return out
    }

    private func line(_ cells: [String], _ widths: [Int]) -> String {
        var text = ""
        for (index, cell) in cells.enumerated() {
            if index > 0 { text += "  " }
            text += index == cells.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
        }
        while text.hasSuffix(" ") { text.removeLast() }
        return text + "\n"
    }

    /// Shortens `text` to `width` with `…`; paths keep their end (the file name), other text its start.
    static func fit(_ text: String, _ width: Int, keepEnd: Bool = false) -> String {
        guard text.count > width else { return text }
        let kept = max(width - 1, 0)
        return keepEnd ? "…" + String(text.suffix(kept)) : String(text.prefix(kept)) + "…"
    }
}
