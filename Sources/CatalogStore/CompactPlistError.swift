/// Why a compact plist could not be rebuilt.
package struct CompactPlistError: Error, CustomStringConvertible, Sendable {
    package let description: String
    init(_ description: String) { self.description = description }
}
