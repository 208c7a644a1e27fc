import Testing
@testable import CatalogCore

/// The caches' key: equal bytes are one key whatever array holds them, and any difference in the
/// bytes (a byte, the length) is another key.
@Suite struct DERKeyTests {
    @Test func equalBytesAreOneKeyAndAnyDifferenceAnother() {
        let der: [UInt8] = (0..<1500).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var table: [DERKey: Int] = [DERKey(der): 1]
        #expect(table[DERKey(Array(der))] == 1)
        var changed = der
        changed[700] ^= 1
        #expect(table[DERKey(changed)] == nil)
        #expect(table[DERKey(Array(der.dropLast()))] == nil)
        #expect(table[DERKey(der + [0])] == nil)
        table[DERKey(changed)] = 2
        #expect(table.count == 2 && table[DERKey(der)] == 1)
        #expect(DERKey([]) == DERKey([]) && DERKey([]) != DERKey([0]))
    }
}
