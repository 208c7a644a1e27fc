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

    /// The width tables fit: `--width N` (0: none), else the terminal's, else `COLUMNS` when stdout
    /// is not a terminal (cron mail set to 80), else no limit.
    var tableWidth: Int? {
        if let override = widthOverride { return override == 0 ? nil : max(override, 20) }
        if let width = terminalWidth { return width }
        if let text = environment["COLUMNS"], let width = Int(text), width > 20 { return width }
        return nil
    }

    /// The width help wraps at: the table width, else 80.
    var helpWidth: Int { tableWidth ?? 80 }

    /// Colour only on a terminal, and never with NO_COLOR set.
    var useColor: Bool { stdoutIsTerminal && environment["NO_COLOR"] == nil }
}
