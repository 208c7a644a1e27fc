import CatalogCore
import Foundation

/// Reads back the JSON the writer stores in TEXT columns — string arrays (`platforms`, `roots`, …)
/// and entitlement values — with Foundation's decoder. A query keeps one: the few distinct arrays
/// a listing repeats (`["iOS"]`) are decoded once each.
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

    /// A stored JSON value; text that does not parse comes back as a string.
    func value(_ text: String) -> JSONValue {
        (try? decoder.decode(JSONValue.self, from: Data(text.utf8))) ?? .string(text)
    }
}
