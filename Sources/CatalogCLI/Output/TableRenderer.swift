import CatalogCore

/// Aligned columns for people, measured in display width (a CJK character or an emoji takes two
/// terminal columns). On a terminal every line fits its width, keeping what the command answers:
/// columns empty in every row go first; free text (names, paths, lists) is shortened, the least
/// wanted column first, down to a readable floor; then the least wanted columns by the command's
/// ranking (`ranked(_:)`) go, free text growing back into the room each leaves (and a column
/// dropped before a wider one coming back when it fits beside the rest at full width); only then
/// is free text cut further. Identifiers (UUIDs, digests, UDIDs) are never cut: a row that cannot
/// be told from another is worse than a missing column.
struct TableRenderer {
    var columns: [Column]
    var width: Int?
    var color: Bool

    /// Free text shortened to this many columns before any column is dropped.
    static let readableFloor = 16
    /// Paths keep a little more: a folder and a file name.
    static let readablePathFloor = 20
    /// And never below this.
    static let hardFloor = 8

    func render(_ records: [JSONValue]) -> String {
        let columns = self.columns.filter { column in
            !column.tableOnlyWhenSet || records.contains { column.value(in: $0) != .null }
        }
        let cells: [[String]] = records.map { record in
            columns.map { TextSanitizer.terminalSafe($0.tableText(in: record)) }
        }
        let natural = columns.indices.map { index in
            cells.reduce(DisplayWidth.of(columns[index].header)) { max($0, DisplayWidth.of($1[index])) }
        }
        var visible = Array(columns.indices)
        var widths = natural
        if let width, Self.total(visible, natural) > width {
            (visible, widths) = fit(columns, cells, natural, width)
        }
        let paths = visible.map { index in columns[index].cut == .path ? PathCut(cells.map { $0[index] }) : nil }
        // Names shortened to the same start (Xcode's `iOS Team Provisioning Profile: …`) would read
        // alike: those keep their end instead, where they differ.
        let alike: [Set<String>] = visible.map { index in
            guard (columns[index].cut ?? .end) == .end else { return [] }
            var originals: [String: Set<String>] = [:]
            for row in cells { originals[DisplayWidth.fit(row[index], widths[index]), default: []].insert(row[index]) }
            return Set(originals.values.filter { $0.count > 1 }.joined())
        }
        func fitted(_ row: [String]) -> [String] {
            visible.enumerated().map { position, index in
                let cell = row[index]
                if let cut = paths[position] { return cut.fit(cell, widths[index]) }
                if alike[position].contains(cell) { return DisplayWidth.fit(cell, widths[index], cut: .middle) }
                return DisplayWidth.fit(cell, widths[index], cut: columns[index].cut ?? .end)
            }
        }
        let shown = visible.map { widths[$0] }
        var out = line(visible.map { DisplayWidth.fit(columns[$0].header, widths[$0]) }, shown)
        if color { out = "\u{1B}[1m" + out.dropLast() + "\u{1B}[0m\n" }
        for row in cells { out += line(fitted(row), shown) }
        return out
    }

    private static func total(_ visible: [Int], _ widths: [Int]) -> Int {
        visible.reduce(0) { $0 + widths[$1] } + 2 * max(visible.count - 1, 0)
    }

    /// The columns kept and their widths for a table wider than `width`.
    private func fit(_ columns: [Column], _ cells: [[String]], _ natural: [Int], _ width: Int) -> ([Int], [Int]) {
        let headers = columns.map { DisplayWidth.of($0.header) }
        // How narrow each column may become, readably and at the last resort (identifiers, dates
        // and counts: never narrower than they are).
        let readable = columns.indices.map { index -> Int in
            guard let cut = columns[index].cut else { return natural[index] }
            let floor: Int
            switch cut {
            case .list: floor = cells.reduce(0) { max($0, Self.listFloor($1[index])) }
            case .path: floor = Self.readablePathFloor
            case .end: floor = Self.readableFloor
            // A bundle id is an identifier: whole, unless nothing else fits.
            case .middle: floor = natural[index]
            }
            return min(natural[index], max(floor, headers[index]))
        }
        let last = columns.indices.map { columns[$0].cut == nil ? natural[$0] : min(natural[$0], max(Self.hardFloor, headers[$0])) }
        // Least wanted first: columns with nothing in them, then by the command's ranking.
        let empty = columns.indices.map { index in cells.allSatisfy { $0[index].isEmpty } }
        let order = columns.indices.sorted { left, right in
            (empty[left] ? -1 : columns[left].priority, right) < (empty[right] ? -1 : columns[right].priority, left)
        }
        var visible = order
        // Columns with nothing in them go before any text is shortened.
        while Self.total(visible, natural) > width, let first = visible.first, empty[first] { visible.removeFirst() }
        var widths = natural
        // The least wanted text gives up its width first.
        func shrink(to floors: [Int]) {
            widths = natural
            for index in visible {
                let excess = Self.total(visible, widths) - width
                guard excess > 0 else { return }
                widths[index] = max(floors[index], widths[index] - excess)
            }
        }
        // Drop the least wanted until the rest fits readably (two stay), then at the last resort
        // (one stays); a single column still too wide is cut at the edge.
        for (floors, keep) in [(readable, 2), (last, 1)] where Self.total(visible, widths) > width {
            shrink(to: floors)
            var dropped: [Int] = []
            while Self.total(visible, widths) > width, visible.count > keep {
                dropped.append(visible.removeFirst())
                shrink(to: floors)
            }
            // A column dropped before a wider one comes back when it fits in the room that one
            // left with the columns kept at their full width.
            for index in dropped.reversed().dropFirst() where Self.total(visible, natural) + 2 + floors[index] <= width {
                visible = order.filter { $0 == index || visible.contains($0) }
            }
            shrink(to: floors)
        }
        if Self.total(visible, widths) > width, let only = visible.first, visible.count == 1 { widths[only] = width }
        return (columns.indices.filter(visible.contains), widths)
    }

    /// The width of a list shortened to its first item and its count (`1, … (9)`), or of one item.
    private static func listFloor(_ text: String) -> Int {
        let items = text.components(separatedBy: ", ")
        guard items.count > 1 else { return min(DisplayWidth.of(text), readableFloor) }
        return min(DisplayWidth.of(text), DisplayWidth.of(items[0] + ", … (\(items.count))"))
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
