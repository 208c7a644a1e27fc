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
public struct PlistDictionary: Sendable, Equatable, Hashable, Sequence {
    public private(set) var keys: [String] = []
    private var storage: [String: PlistValue] = [:]

    public init() {}

    public init(_ pairs: [(String, PlistValue)]) {
        for (key, value) in pairs { self[key] = value }
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    public subscript(key: String) -> PlistValue? {
        get { storage[key] }
        set {
            if let newValue {
                if storage.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if storage.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    public func makeIterator() -> AnyIterator<(key: String, value: PlistValue)> {
        var index = 0
        return AnyIterator {
            guard index < keys.count else { return nil }
            defer { index += 1 }
            let key = keys[index]
            return (key, storage[key]!)
        }
    }
}

/// How a plist was written.
public enum PlistFormat: String, Sendable, CaseIterable, Codable {
    case xml
    case binary
}
