import Foundation

/// Typed reads of plist keys: a present key of the wrong type is an `invalidValue` error naming the
/// key and both types; an absent key is nil (or an error for the `required` variants).
extension PlistDictionary {
    package func string(_ key: String) throws -> String? {
        try typed(key, "string") { $0.string }
    }

    package func requiredString(_ key: String) throws -> String {
        guard let value = try string(key) else { throw missing(key) }
        return value
    }

    package func bool(_ key: String) throws -> Bool? {
        try typed(key, "boolean") { $0.bool }
    }

    package func integer(_ key: String) throws -> Int? {
        try typed(key, "integer") { $0.integer.flatMap { Int(exactly: $0) } }
    }

    package func date(_ key: String) throws -> Date? {
        try typed(key, "date") { $0.date }
    }

    package func requiredDate(_ key: String) throws -> Date {
        guard let value = try date(key) else { throw missing(key) }
        return value
    }

    package func data(_ key: String) throws -> [UInt8]? {
        try typed(key, "data") { $0.data }
    }

    package func dictionary(_ key: String) throws -> PlistDictionary? {
        try typed(key, "dictionary") { $0.dictionary }
    }

    package func strings(_ key: String) throws -> [String]? {
        try array(key, of: "string") { $0.string }
    }

    package func dataArray(_ key: String) throws -> [[UInt8]]? {
        try array(key, of: "data") { $0.data }
    }

    /// A string, or a number written where a string belongs (`<integer>34</integer>` for a build
    /// number): Info.plists in the wild do that and Xcode tolerates it.
    package func lenientString(_ key: String) -> String? {
        switch self[key] {
        case .string(let value): return value
        case .integer(let value): return String(value)
        case .unsignedInteger(let value): return String(value)
        case .real(let value): return String(value)
        default: return nil
        }
    }

    private func typed<T>(_ key: String, _ expected: String, _ cast: (PlistValue) -> T?) throws -> T? {
        guard let value = self[key] else { return nil }
        guard let typed = cast(value) else {
            throw DecodeError(.invalidValue, "\(key): expected \(expected), found \(value.typeName)")
        }
        return typed
    }

    private func array<T>(_ key: String, of expected: String, _ cast: (PlistValue) -> T?) throws -> [T]? {
        guard let value = self[key] else { return nil }
        guard let items = value.array else {
            throw DecodeError(.invalidValue, "\(key): expected array of \(expected), found \(value.typeName)")
        }
        var result: [T] = []
        result.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard let typed = cast(item) else {
                throw DecodeError(.invalidValue,
                                  "\(key)[\(index)]: expected \(expected), found \(item.typeName)")
            }
            result.append(typed)
        }
        return result
    }

    private func missing(_ key: String) -> DecodeError {
        DecodeError(.invalidValue, "missing required key \(key)")
    }
}
