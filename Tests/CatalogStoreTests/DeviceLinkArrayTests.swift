import Foundation
import Testing
@testable import CatalogStore

/// The JSON array of device ids the writer hands SQLite for a profile's links is what
/// `JSONSerialization` would write, for every size and sign of id.
struct DeviceLinkArrayTests {
    @Test func idsAreWrittenAsAJSONArray() throws {
        let cases: [[Int64]] = [[], [0], [7], [1, 23, 456, 7890, 12345678901], [-5, 10, -100],
                                [Int64.max, Int64.min], Array(1...1000)]
        for ids in cases {
            let text = CatalogWriter.jsonArray(ids)
            let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [NSNumber]
            #expect(parsed?.map(\.int64Value) == ids, "\(text.prefix(80))")
            #expect(text == "[" + ids.map(String.init).joined(separator: ",") + "]")
        }
    }
}
