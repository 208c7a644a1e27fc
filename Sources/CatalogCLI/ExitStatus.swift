/// The exit statuses `catalog` promises scripts and cron jobs, kept apart so that "found something"
/// can never be mistaken for "failed".
enum ExitStatus {
    /// Success; with `--exit-code`, also "nothing in the window".
    static let success: Int32 = 0
    /// A failure: no catalogue, an unreadable file, a full disk, `ingest --strict` with bad files.
    static let failure: Int32 = 1
    /// `expiring --exit-code` listed something.
    static let found: Int32 = 2
    /// A command-line mistake (as swift-argument-parser and sysexits' EX_USAGE).
    static let usage: Int32 = 64
}
