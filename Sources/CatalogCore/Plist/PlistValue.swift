import Foundation

/// A property-list value as read from an XML or binary plist. Dictionaries keep their keys in file
/// order (a later duplicate key replaces the earlier value in place).
public enum PlistValue: Sendable, Equatable, Hashable {
    case string(String)
    case integer(Int64)
    /// Binary plists can hold unsigned 64-bit integers above Int64.max; XML integers beyond Int64.
    case unsignedInteger(UInt64)
    case real(Double)
    case bool(Bool)
    case date(Date)
    case data([UInt8])
    case array([PlistValue])
    case dictionary(PlistDictionary)

    public var string: String? { if case .string(let value) = self { return value } else { return nil } }
    public var bool: Bool? { if case .bool(let value) = self { return value } else { return nil } }
    public var date: Date? { if case .date(let value) = self { return value } else { return nil } }
    public var data: [UInt8]? { if case .data(let value) = self { return value } else { return nil } }
    public var array: [PlistValue]? { if case .array(let value) = self { return value } else { return nil } }
    public var dictionary: PlistDictionary? {
        if case .dictionary(let value) = self { return value } else { return nil }
    }
    public var integer: Int64? {
        switch self {
        case .integer(let value): return value
        case .unsignedInteger(let value): return Int64(exactly: value)
        default: return nil
        }
    }

    /// A short name for the value's type, for error messages ("expected string, found integer").
    public var typeName: String {
        switch self {
        case .string: return "string"
        case .integer, .unsignedInteger: return "integer"
        case .real: return "real"
        case .bool: return "boolean"
        case .date: return "date"
        case .data: return "data"
        case .array: return "array"
        case .dictionary: return "dictionary"
        }
    }
}

/// An ordered string-keyed dictionary: plist dictionaries keep file order so output is stable.
///
/// The keys and values are kept side by side in file order and a key is found by a linear search
/// (comparing lengths first), until a dictionary has more than ``linearLimit`` keys: then by a hash
/// table of positions. A profile's dictionaries have 5 to 20 keys, too few to repay hashing each key
/// and growing a table.
public struct PlistDictionary: Sendable, Equatable, Hashable, Sequence {
    public private(set) var keys: [String] = []
    private var values: [PlistValue] = []
    /// The position of each key, once there are more than ``linearLimit``.
    private var positions: [String: Int]?

    /// How many keys are searched for one by one.
    static let linearLimit = 32
    /// How many keys the first insertion makes room for.
    static let initialCapacity = 16

    public init() {}

    public init(_ pairs: [(String, PlistValue)]) {
        for (key, value) in pairs { self[key] = value }
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    public subscript(key: String) -> PlistValue? {
        get { position(of: key).map { values[$0] } }
        set {
            if let newValue {
                if let position = position(of: key) {
                    values[position] = newValue
                    return
                }
                if keys.isEmpty {
                    // Room for a profile's top level at once: grown from one key, the two arrays
                    // were reallocated five times each (a tenth of a decoder's allocations).
                    keys.reserveCapacity(Self.initialCapacity)
                    values.reserveCapacity(Self.initialCapacity)
                }
                keys.append(key)
                values.append(newValue)
                if positions != nil {
                    positions?[key] = keys.count - 1
                } else if keys.count > Self.linearLimit {
                    positions = Dictionary(uniqueKeysWithValues: zip(keys, keys.indices))
                }
            } else if let position = position(of: key) {
                keys.remove(at: position)
                values.remove(at: position)
                if positions != nil {
                    positions = keys.count > Self.linearLimit ? Dictionary(uniqueKeysWithValues: zip(keys, keys.indices)) : nil
                }
            }
        }
    }

    private func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        let length = key.utf8.count
        return keys.firstIndex { $0.utf8.count == length && $0 == key }
    }

    public func makeIterator() -> AnyIterator<(key: String, value: PlistValue)> {
        var index = 0
        return AnyIterator {
            guard index < keys.count else { return nil }
            defer { index += 1 }
            return (keys[index], values[index])
        }
    }

    /// Equal when they hold the same keys in the same order, with equal values.
    public static func == (lhs: PlistDictionary, rhs: PlistDictionary) -> Bool {
        lhs.keys == rhs.keys && lhs.values == rhs.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(keys)
        hasher.combine(values)
    }
}

/// How a plist was written.
public enum PlistFormat: String, Sendable, CaseIterable, Codable {
    case xml
    case binary
}
