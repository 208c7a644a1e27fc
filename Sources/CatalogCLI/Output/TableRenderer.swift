import CatalogCore

/// Aligned columns for people, measured in display width (a CJK character or an emoji takes two
/// terminal columns). On a terminal the table fits its width: free text (names, paths) is
/// shortened first, down to a readable floor — paths in the middle, so the folder and the file
/// name stay — then the least useful columns are dropped, and only then is free text cut further.
/// Identifiers (UUIDs, digests, bundle ids) are never shortened: a row that cannot be told from
/// another is worse than a missing column.
struct TableRenderer {
    var columns: [Column]
    var width: Int?
    var color: Bool

    /// Free text shortened to this many columns before any column is dropped.
    static let readableFloor = 20
    /// And never below this.
    static let hardFloor = 8

    func render(_ records: [JSONValue]) -> String {
        let columns = self.columns.filter { column in
            !column.tableOnlyWhenSet || records.contains { column.value(in: $0) != .null }
        }
        let cells: [[String]] = records.map { record in
            columns.map { TextSanitizer.terminalSafe($0.tableText(in: record)) }
        }
        var visible = Array(columns.indices)
        var widths = columns.indices.map { index in
            cells.reduce(DisplayWidth.of(columns[index].header)) { max($0, DisplayWidth.of($1[index])) }
        }
        if let width {
            func total() -> Int { visible.reduce(0) { $0 + widths[$1] } + 2 * max(visible.count - 1, 0) }
            func shrink(to floor: Int) {
                let shrinkable = visible.filter { columns[$0].isShrinkable }
                while total() > width {
                    guard let widest = shrinkable.max(by: { widths[$0] < widths[$1] }),
                          widths[widest] > max(floor, DisplayWidth.of(columns[widest].header)) else { return }
                    widths[widest] -= 1
                }
            }
            shrink(to: Self.readableFloor)
            // Drop the least wanted column, never the two most wanted.
            func droppable() -> Int? {
                let ranked = visible.sorted { columns[$0].priority > columns[$1].priority }
                return ranked.dropFirst(2).min { columns[$0].priority < columns[$1].priority }
            }
            while total() > width, let least = droppable() {
                visible.removeAll { $0 == least }
                widths[least] = 0
                // A dropped column may leave room: let free text grow back to its natural width.
                for index in visible where columns[index].isShrinkable {
                    widths[index] = cells.reduce(DisplayWidth.of(columns[index].header)) { max($0, DisplayWidth.of($1[index])) }
                }
                shrink(to: Self.readableFloor)
            }
            shrink(to: Self.hardFloor)
        }
        var out = line(visible.map { DisplayWidth.fit(columns[$0].header, widths[$0]) }, visible.map { widths[$0] })
        if color { out = "\u{1B}[1m" + out.dropLast() + "\u{1B}[0m\n" }
        for row in cells {
            out += line(visible.map { DisplayWidth.fit(row[$0], widths[$0], cut: columns[$0].cut) }, visible.map { widths[$0] })
        }
        return out
    }

    private func line(_ cells: [String], _ widths: [Int]) -> String {
        var text = ""
        for (index, cell) in cells.enumerated() {
            if index > 0 { text += "  " }
            text += index == cells.count - 1 ? cell : DisplayWidth.pad(cell, widths[index])
        }
        while text.hasSuffix(" ") { text.removeLast() }
        return text + "\n"
    }
}
