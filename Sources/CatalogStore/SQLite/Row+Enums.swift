/// Reading the columns whose CHECK constraints name a fixed set of values into their enums. A value
/// outside the set (a catalogue edited by hand) is an error naming the column, not a guess.
extension Row {
    func value<Value: RawRepresentable>(_ column: String, as type: Value.Type) throws -> Value where Value.RawValue == String {
        try value(at: names.position(of: column) ?? -1, column, as: type)
    }

    func optionalValue<Value: RawRepresentable>(_ column: String, as type: Value.Type) throws -> Value?
    where Value.RawValue == String {
        try optionalValue(at: names.position(of: column) ?? -1, column, as: type)
    }

    /// ``value(_:as:)`` of the column at `index` (NULL when out of range), named `column` in errors.
    func value<Value: RawRepresentable>(at index: Int, _ column: String, as type: Value.Type) throws -> Value
    where Value.RawValue == String {
        guard let value = try optionalValue(at: index, column, as: type) else {
            throw StoreError.unexpectedValue(column: column, value: "NULL")
        }
        return value
    }

    /// ``optionalValue(_:as:)`` of the column at `index` (NULL when out of range), named `column` in errors.
    func optionalValue<Value: RawRepresentable>(at index: Int, _ column: String, as type: Value.Type) throws -> Value?
    where Value.RawValue == String {
        guard let text = self[index].string else { return nil }
        guard let value = Value(rawValue: text) else { throw StoreError.unexpectedValue(column: column, value: text) }
        return value
    }
}
