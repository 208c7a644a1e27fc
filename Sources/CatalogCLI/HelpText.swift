import Foundation

/// Help lines: a label padded to a column, then its text, continuation lines indented under it.
enum HelpText {
    static func row(_ label: String, _ help: String) -> String {
        let padded = label.count < 28 ? label.padding(toLength: 28, withPad: " ", startingAt: 0) : label + "\n" + String(repeating: " ", count: 30)
        return "  " + padded + help.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: 30)) + "\n"
    }
}
