import Foundation

/// One `ingest --exclude` pattern, read as `.gitignore` reads a line:
/// - without a slash (`*.dSYM`, `malformed`), it matches an entry's name at any depth;
/// - with a slash (`malformed/*`, `Fixtures/malformed`, `/old`), it matches the entry's path relative
///   to the walked root, from its start; a leading slash only anchors it. A pattern that is an
///   absolute path (`/srv/ci/old/*`) also matches entries by their full path; a leading `./` is a
///   leading slash;
/// - `*`, `?` and `[…]` never match a `/`; a `**` segment matches any number of folders (`**/tmp`,
///   `build/**`, `a/**/b`);
/// - a trailing slash (`build/`) matches folders only.
/// An excluded folder is not walked, so nothing below it is read.
package struct ExcludePattern: Sendable, Equatable {
    package let text: String
    /// Segments to match against the path's segments; nil for a bare name.
    private let segments: [String]?
    private let directoryOnly: Bool
    /// Starts with a slash: may also be an absolute path.
    private let absolute: Bool
    /// The pattern without its trailing slash, for a bare name.
    private let bare: String

    package init(_ text: String) {
        self.text = text
        var pattern = Substring(text)
        // `./x/*` is written for `x/*` (relative to the root, as every pattern with a slash is).
        while pattern.hasPrefix("./") { pattern = Substring("/" + pattern.dropFirst(2)) }
        directoryOnly = pattern.count > 1 && pattern.hasSuffix("/")
        while pattern.count > 1 && pattern.hasSuffix("/") { pattern = pattern.dropLast() }
        absolute = pattern.hasPrefix("/")
        if pattern.contains("/") {
            segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        } else {
            segments = nil
        }
        bare = String(pattern)
    }

    /// Whether the entry at `path` (`relative` to the walked root, `name` its last component) matches.
    package func matches(path: String, relative: Substring, name: String, isDirectory: () -> Bool) -> Bool {
        let matched: Bool
        if let segments {
            matched = Self.match(segments[...], relative.split(separator: "/")[...])
                || (absolute && Self.match(segments[...], path.split(separator: "/")[...]))
        } else {
            matched = fnmatch(bare, name, 0) == 0
        }
        return matched && (!directoryOnly || isDirectory())
    }

    private static func match(_ pattern: ArraySlice<String>, _ path: ArraySlice<Substring>) -> Bool {
        guard let first = pattern.first else { return path.isEmpty }
        if first == "**" {
            // A trailing `**` matches what is inside, not the folder itself (as in .gitignore).
            if pattern.count == 1 { return !path.isEmpty }
            var rest = path
            while true {
                if match(pattern.dropFirst(), rest) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        }
        guard let segment = path.first, fnmatch(first, String(segment), 0) == 0 else { return false }
        return match(pattern.dropFirst(), path.dropFirst())
    }
}
