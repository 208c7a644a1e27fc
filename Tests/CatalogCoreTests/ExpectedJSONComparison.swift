import Foundation
@testable import CatalogCore

/// Compares an expected JSON object (from an `expected.json`, parsed by Foundation) with the
/// decoder's `JSONValue`: every key the expectation lists must be present with an equal value;
/// keys it does not list are not checked. Returns one line per mismatch.
enum ExpectedJSONComparison {
    static func mismatches(expected: Any, actual: JSONValue?, at path: String = "") -> [String] {
        guard let actual else { return ["\(path): missing"] }
        switch expected {
        case let dict as [String: Any]:
            return dict.keys.sorted().flatMap { key in
                mismatches(expected: dict[key]!, actual: actual[key], at: path + "." + key)
            }
        case let array as [Any]:
            guard case .array(let items) = actual else { return ["\(path): expected array, got \(actual.serialized())"] }
            guard items.count == array.count else {
                return ["\(path): expected \(array.count) items, got \(items.count)"]
            }
            return zip(array, items).enumerated().flatMap { index, pair in
                mismatches(expected: pair.0, actual: pair.1, at: "\(path)[\(index)]")
            }
        case is NSNull:
            return actual == .null ? [] : ["\(path): expected null, got \(actual.serialized())"]
        default:
            let expectedText = scalarText(expected)
            let actualText: String
            switch actual {
            case .string(let text): actualText = text
            case .bool(let flag): actualText = flag ? "true" : "false"
            case .int(let number): actualText = String(number)
            case .double(let number): actualText = String(number)
            default: actualText = actual.serialized()
            }
            return expectedText == actualText ? [] : ["\(path): expected \(expectedText), got \(actualText)"]
        }
    }

    private static func scalarText(_ value: Any) -> String {
        if let flag = value as? Bool, type(of: value) == Bool.self { return flag ? "true" : "false" }
        if let number = value as? NSNumber {
            // JSON booleans come back as NSNumbers of ObjC type "c" (char).
            if String(cString: number.objCType) == "c" { return number.boolValue ? "true" : "false" }
            return number.stringValue
        }
        return "\(value)"
    }
}
