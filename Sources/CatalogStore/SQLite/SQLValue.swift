import Foundation

/// A value SQLite stores: one case per storage class.
package enum SQLValue: Equatable, Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

// MARK: - Building values from Swift types (nil becomes NULL)

extension SQLValue {
    package init(_ value: String?) { self = value.map { .text($0) } ?? .null }
    package init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    package init(_ value: Int64?) { self = value.map { .integer($0) } ?? .null }
    package init(_ value: Double?) { self = value.map { .real($0) } ?? .null }
    /// Booleans are stored as 0 and 1.
    package init(_ value: Bool?) { self = value.map { .integer($0 ? 1 : 0) } ?? .null }
    package init(_ value: [UInt8]?) { self = value.map { .blob($0) } ?? .null }
    /// Dates are stored as ISO-8601 UTC text, `2026-11-29T10:00:00Z` (whole seconds).
    package init(_ value: Date?) { self = value.map { .text(SQLDate.string(from: $0)) } ?? .null }
}

// MARK: - Reading values; every accessor returns nil for NULL or an unrelated storage class

extension SQLValue {
    package var isNull: Bool { self == .null }

    package var int64: Int64? {
        switch self {
        case .integer(let value): return value
        case .real(let value): return Int64(exactly: value)
        default: return nil
        }
    }

    package var int: Int? { int64.flatMap { Int(exactly: $0) } }

    package var double: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        default: return nil
        }
    }

    package var bool: Bool? { int64.map { $0 != 0 } }

    package var string: String? {
        if case .text(let value) = self { return value } else { return nil }
    }

    package var blob: [UInt8]? {
        switch self {
        case .blob(let value): return value
        case .text(let value): return Array(value.utf8)
        default: return nil
        }
    }

    /// Parses ISO-8601 UTC text written by ``init(_:)-Date``.
    package var date: Date? { string.flatMap(SQLDate.date(from:)) }
}

extension SQLValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByBooleanLiteral {
    package init(nilLiteral: ()) { self = .null }
    package init(integerLiteral value: Int64) { self = .integer(value) }
    package init(floatLiteral value: Double) { self = .real(value) }
    package init(stringLiteral value: String) { self = .text(value) }
    package init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}
