/// Shortens the paths of one table column so that what tells the rows apart stays: folders every
/// row shares (`/Users/ci/Library/…`, `Payload`, `embedded.mobileprovision` inside each build) go
/// first, the row's own parts (`Example.ipa`, a profile's file name) last, each gone run of
/// components shown as one `…`. `/` and the `!` between an archive and a member both separate.
struct PathCut {
    /// How many of the column's paths contain each component: the more, the less it tells.
    private let counts: [Substring: Int]

    init(_ paths: [String]) {
        var counts: [Substring: Int] = [:]
        for path in paths {
            for component in Set(Self.components(path).map(\.text)) { counts[component, default: 0] += 1 }
        }
        self.counts = counts
    }

    /// A path's components, each with the separator before it (`""` for the first).
    private static func components(_ path: String) -> [(separator: Substring, text: Substring)] {
        var out: [(Substring, Substring)] = []
        var start = path.startIndex, separator = path[path.startIndex..<path.startIndex]
        for index in path.indices where path[index] == "/" || path[index] == "!" {
            out.append((separator, path[start..<index]))
            separator = path[index...index]
            start = path.index(after: index)
        }
        out.append((separator, path[start...]))
        return out
    }

    /// `path` in at most `width` display columns.
    func fit(_ path: String, _ width: Int) -> String {
        guard DisplayWidth.of(path) > width else { return path }
        let parts = Self.components(path)
        // Components the most rows share go first, leftmost first among equals but the file
        // last: `embedded.mobileprovision` in every build goes before the build's own name.
        let last = parts.count - 1
        let order = parts.indices.sorted { left, right in
            let a = counts[parts[left].text] ?? 0, b = counts[parts[right].text] ?? 0
            if a != b { return a > b }
            return (left == last ? 1 : 0, left) < (right == last ? 1 : 0, right)
        }.dropLast()
        var removed = Set<Int>()
        var best = path
        for index in order {
            removed.insert(index)
            // The root's empty name leaves nothing to save: go on to the next component.
            if parts[index].text.isEmpty { continue }
            best = Self.render(parts, without: removed)
            if DisplayWidth.of(best) <= width { return best }
        }
        // Even one component is too wide: keep its start, where names differ, and its extension.
        if !removed.contains(parts.count - 1), let name = parts.last?.text, name.dropFirst().contains("."),
           let dot = best.lastIndex(of: "."),
           case let ext = String(best[dot...]), DisplayWidth.of(ext) + 12 <= width {
            return DisplayWidth.prefix(String(best[..<dot]), width - 1 - DisplayWidth.of(ext)) + "…" + ext
        }
        return DisplayWidth.fit(best, width)
    }

    private static func render(_ parts: [(separator: Substring, text: Substring)], without removed: Set<Int>) -> String {
        var out = ""
        for (index, part) in parts.enumerated() {
            if removed.contains(index) {
                if index == 0 || !removed.contains(index - 1) { out += part.separator + "…" }
            } else {
                out += part.separator + part.text
            }
        }
        return out
    }
}
