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

    func matches(_ text: String) -> Bool { regexec(&expression, text, 0, nil, 0) == 0 }
}
