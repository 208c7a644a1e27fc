/// Reading the columns whose CHECK constraints name a fixed set of values into their enums. A value
/// outside the set (a catalogue edited by hand) is an error naming the column, not a guess.
extension Row {
    func value<Value: RawRepresentable>(_ column: String, as type: Value.Type) throws -> Value where Value.RawValue == String {
        guard let value = try optionalValue(column, as: type) else {
            throw StoreError.unexpectedValue(column: column, value: "NULL")
        }
        return value
    }

    func optionalValue<Value: RawRepresentable>(_ column: String, as type: Value.Type) throws -> Value?
    where Value.RawValue == String {
        guard let text = string(column) else { return nil }
        guard let value = Value(rawValue: text) else { throw StoreError.unexpectedValue(column: column, value: text) }
        return value
    }
}
