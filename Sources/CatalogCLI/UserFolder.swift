import Foundation

/// This tool's folders in the user's home, as each platform places them: on macOS
/// `~/Library/Application Support/catalog` for both; elsewhere the XDG base directories, whose
/// variables count only when absolute, as the specification says.
enum UserFolder {
    /// The catalogue: `$XDG_DATA_HOME/catalog` (`~/.local/share/catalog`).
    case data
    /// What a command remembers between runs (what was announced): `$XDG_STATE_HOME/catalog`
    /// (`~/.local/state/catalog`).
    case state

    func path(_ environment: [String: String]) -> String {
        let home = environment["HOME"] ?? NSHomeDirectory()
        #if os(macOS)
        return home + "/Library/Application Support/catalog"
        #else
        let (variable, fallback) = self == .data ? ("XDG_DATA_HOME", "/.local/share") : ("XDG_STATE_HOME", "/.local/state")
        let base = environment[variable].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + fallback
        return base + "/catalog"
        #endif
    }
}
