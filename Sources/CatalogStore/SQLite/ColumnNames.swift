import Foundation

/// A result's column names, made once per statement and shared by all of its rows, with what a
/// lookup by name compares first: a listing looks up two dozen columns by name in every row, and
/// comparing the name with each column's String in turn was an eighth of what `profiles --json`
/// did after its first row (a dictionary of positions still a tenth: hashing the name).
package final class ColumnNames: Sendable {
    package let names: [String]
    /// Each name's UTF-8 length and first eight bytes (zero-padded), in column order.
    private let keys: [Key]
    private let utf8: [[UInt8]]

    private struct Key: Equatable {
        let count: Int
        let prefix: UInt64
    }

    package init(_ names: [String]) {
        self.names = names
        utf8 = names.map { Array($0.utf8) }
        keys = names.map { name in
            var name = name
            return name.withUTF8(Self.key)
        }
    }

    /// The position of the first column with this name (case-sensitive).
    package func position(of name: String) -> Int? {
        var name = name
        return name.withUTF8 { bytes in
            let key = Self.key(bytes)
            for position in keys.indices where keys[position] == key
                && (bytes.count <= 8 || utf8[position].withUnsafeBufferPointer {
                    memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) {
                return position
            }
            return nil
        }
    }

    private static func key(_ bytes: UnsafeBufferPointer<UInt8>) -> Key {
        guard let base = bytes.baseAddress else { return Key(count: 0, prefix: 0) }
        if bytes.count >= 8 { return Key(count: bytes.count, prefix: UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)) }
        var prefix: UInt64 = 0
        for index in 0..<bytes.count { prefix |= UInt64(base[index]) << (8 * UInt64(index)) }
        return Key(count: bytes.count, prefix: prefix)
    }
}
