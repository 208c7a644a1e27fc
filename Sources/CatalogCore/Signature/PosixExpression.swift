import Foundation

/// A POSIX extended regular expression (`regcomp` with `REG_EXTENDED | REG_NOSUB`): the engine
/// Apple's tools compile resource rules with, on Linux and macOS alike.
final class PosixExpression {
    /// Longest pattern compiled: real rules are a few dozen characters.
    static let maximumLength = 1024

    private var expression = regex_t()
    /// Only a compiled expression is freed: regcomp leaves nothing to free when it fails.
    private var compiled = false

    init?(_ pattern: String) {
        guard pattern.utf8.count <= Self.maximumLength, regcomp(&expression, pattern, REG_EXTENDED | REG_NOSUB) == 0 else {
            return nil
        }
        compiled = true
    }

    deinit { if compiled { regfree(&expression) } }

    /// The expression for `pattern`, compiled once per thread: every bundle's seal carries the same
    /// few rules, and an expression is not shared between threads (glibc serialises `regexec` on one).
    /// Kept for speed (cold ingest, bench.py integrity_extra).
    static func cached(_ pattern: String) -> PosixExpression? {
        let store = Thread.current.threadDictionary
        let key = "catalog.posix." + pattern
        if let known = store[key] as? PosixExpression { return known }
        guard store.count < 4096, let made = PosixExpression(pattern) else { return PosixExpression(pattern) }
        store[key] = made
        return made
    }

    func matches(_ text: String) -> Bool { regexec(&expression, text, 0, nil, 0) == 0 }
}
