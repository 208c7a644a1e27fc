import Foundation

/// Help lines: a label padded to a column, then its text, wrapped to the width with continuation
/// lines indented under it.
enum HelpText {
    /// Where an option's help starts.
    static let column = 30

    static func row(_ label: String, _ help: String, width: Int = 80) -> String {
        let lines = wrap(help, width: max(width - column, 20))
        let indent = String(repeating: " ", count: column)
        let first = label.count < column - 2 ? "  " + label.padding(toLength: column - 2, withPad: " ", startingAt: 0) + (lines.first ?? "")
            : "  " + label + "\n" + indent + (lines.first ?? "")
        return ([first] + lines.dropFirst().map { indent + $0 }).joined(separator: "\n") + "\n"
    }

    /// `text` as lines of at most `width` columns: its line breaks are soft (a paragraph's lines
    /// are joined), except before a blank line, an indented line or a `-` item; a word longer than
    /// the width stands alone.
    static func wrap(_ text: String, width: Int) -> [String] {
        var paragraphs: [String] = []
        var current = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let hard = line.isEmpty || line.hasPrefix(" ") || line.hasPrefix("-")
            if hard, !current.isEmpty { paragraphs.append(current); current = "" }
            if line.isEmpty { paragraphs.append(""); continue }
            current += (current.isEmpty ? "" : " ") + line
        }
        if !current.isEmpty { paragraphs.append(current) }
        var lines: [String] = []
        for paragraph in paragraphs {
            let indent = String(paragraph.prefix { $0 == " " })
            var line = ""
            for word in paragraph.split(separator: " ") {
                if !line.isEmpty && line.count + 1 + word.count > width {
                    lines.append(line)
                    line = indent
                }
                line += (line.isEmpty || line == indent ? "" : " ") + word
            }
            lines.append(line)
        }
        return lines
    }
}
