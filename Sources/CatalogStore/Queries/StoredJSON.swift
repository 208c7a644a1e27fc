import CatalogCore
import Foundation

/// Reads back the JSON the writer stores in TEXT columns — string arrays (`platforms`, `roots`, …),
/// arrays of row ids and entitlement values — with Foundation's decoder. A query keeps one: the few
/// distinct arrays a listing repeats (`["iOS"]`) are decoded once each.
struct StoredJSON {
    private let decoder = JSONDecoder()
    private var arrays: [String: [String]] = [:]

    /// A stored string array; `[]` for NULL (and for text the writer never writes).
    mutating func strings(_ text: String?) -> [String] {
        guard let text else { return [] }
        if let known = arrays[text] { return known }
        let decoded = (try? decoder.decode([String].self, from: Data(text.utf8))) ?? []
        arrays[text] = decoded
        return decoded
    }

    /// A stored array of row ids (`profiles.device_ids`); `[]` for NULL (and for text the writer
    /// never writes).
    func ids(_ text: String?) -> [Int64] {
        guard let text else { return [] }
        return (try? decoder.decode([Int64].self, from: Data(text.utf8))) ?? []
    }

    /// A stored JSON value; text that does not parse comes back as a string.
    func value(_ text: String) -> JSONValue {
        (try? decoder.decode(JSONValue.self, from: Data(text.utf8))) ?? .string(text)
    }
}
