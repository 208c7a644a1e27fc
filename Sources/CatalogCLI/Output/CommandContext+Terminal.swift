import Foundation

extension CommandContext {
    /// Terminal width from `COLUMNS` or the tty, when stdout is a terminal.
    var terminalWidth: Int? {
        guard stdoutIsTerminal else { return nil }
        if let text = environment["COLUMNS"], let width = Int(text), width > 20 { return width }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 20 { return Int(size.ws_col) }
        return 100
    }

    /// Colour only on a terminal, and never with NO_COLOR set.
    var useColor: Bool { stdoutIsTerminal && environment["NO_COLOR"] == nil }
}
