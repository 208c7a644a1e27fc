import CatalogCore

extension JSONValue {
    /// The object's members named in `keys`, in that order (null where it has none): one record's
    /// row serves the places that show part of it (`show`'s certificates and builds).
    func picking(_ keys: [String]) -> JSONValue {
        guard case .object(let pairs) = self else { return self }
        return .object(keys.map { key in (key, pairs.first { $0.0 == key }?.1 ?? .null) })
    }
}
