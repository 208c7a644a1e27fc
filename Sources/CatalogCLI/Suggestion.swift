/// "Did you mean …?" for a misspelt subcommand or option: the closest known name by edit distance,
/// when it is close enough to be a typo (at most a third of the word, and at most 3 edits).
enum Suggestion {
    static func closest(to typed: String, among names: [String]) -> String? {
        let limit = min(3, max(1, typed.count / 3))
        let scored = names.map { ($0, distance(typed.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= limit else { return nil }
        return best.0
    }

    /// " (did you mean 'x'?)" or "".
    static func hint(for typed: String, among names: [String], prefix: String = "") -> String {
        closest(to: typed, among: names).map { " (did you mean '\(prefix)\($0)'?)" } ?? ""
    }

    /// Damerau–Levenshtein distance (optimal string alignment): a swap of two letters is one edit.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            previous2 = previous
            previous = current
        }
        return previous[b.count]
    }
}
