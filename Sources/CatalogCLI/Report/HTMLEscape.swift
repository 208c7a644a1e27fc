/// Text from files (profile names, team names, paths) made inert in HTML and SVG: the five
/// characters that can open markup or end an attribute become entities.
enum HTMLEscape {
    static func text(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for character in TextSanitizer.terminalSafe(value) {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
