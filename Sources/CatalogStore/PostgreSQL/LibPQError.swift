/// Why libpq, which only a PostgreSQL catalogue needs, cannot be used.
package enum LibPQError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No candidate could be opened; `reason` is the loader's message for the last one.
    case libraryNotFound(tried: [String], reason: String)
    /// The library opened but lacks a function (a libpq older than PostgreSQL 9.1, or not libpq).
    case missingFunction(name: String, library: String)

    package var description: String {
        switch self {
        case .libraryNotFound(let tried, let reason):
            return "a PostgreSQL catalogue needs libpq, which was not found (tried \(tried.joined(separator: ", ")): "
                + "\(reason)); install it with 'apt-get install libpq5' (Debian, Ubuntu) or 'brew install libpq' "
                + "(macOS), or set \(LibPQ.overrideVariable) to the library's path"
        case .missingFunction(let name, let library):
            return "\(library) is not a usable libpq (it has no \(name)); install a current one with "
                + "'apt-get install libpq5' (Debian, Ubuntu) or 'brew install libpq' (macOS)"
        }
    }
}
