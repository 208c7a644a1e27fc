import Foundation

/// JSON text read back with Foundation's decoder (the store reads the entitlement values it wrote).
/// Object keys come back sorted: Foundation does not keep their order, and sorted is what a plist
/// dictionary's keys are in as Apple's tools write them.
extension JSONValue: Decodable {
    package init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(JSONValue.self)) }
            self = .array(items)
        } else if let object = try? decoder.container(keyedBy: AnyKey.self) {
            self = .object(try object.allKeys.sorted { $0.stringValue < $1.stringValue }.map {
                ($0.stringValue, try object.decode(JSONValue.self, forKey: $0))
            })
        } else {
            self = try Self.scalar(decoder.singleValueContainer())
        }
    }

    private static func scalar(_ value: any SingleValueDecodingContainer) throws -> JSONValue {
        if value.decodeNil() { return .null }
        if let bool = try? value.decode(Bool.self) { return .bool(bool) }
        if let int = try? value.decode(Int64.self) { return .int(int) }
        if let double = try? value.decode(Double.self) { return .double(double) }
        return .string(try value.decode(String.self))
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
