import Testing
@testable import CatalogStore

/// The writer's device-id table agrees with a dictionary over many identifiers of both UDID
/// spellings, of other lengths and of more than 40 bytes, across its growth and after being
/// emptied.
@Suite struct DeviceIDTableTests {
    private static func identifiers(_ count: Int) -> [String] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 11
        }
        let hex = Array("0123456789abcdef")
        func digits(_ n: Int) -> String { String((0..<n).map { _ in hex[Int(next() % 16)] }) }
        return (0..<count).map { index in
            switch index % 5 {
            case 0, 1: return digits(40)                                          // lower-case 40
            case 2: return (digits(8) + "-" + digits(16)).uppercased()            // 8-16
            case 3: return digits(Int(next() % 40))                               // 0…39 bytes
            default: return digits(41 + Int(next() % 30))                         // longer than 40
            }
        }
    }

    @Test func agreesWithADictionary() {
        var table = DeviceIDTable()
        var reference: [String: Int64] = [:]
        let udids = Self.identifiers(20_000)
        for (index, udid) in udids.enumerated() {
            #expect(table.id(of: udid) == reference[udid])
            table.set(Int64(index), for: udid)
            reference[udid] = Int64(index)
        }
        #expect(table.count == reference.count)
        for udid in udids { #expect(table.id(of: udid) == reference[udid]) }
        // Setting again replaces, without adding.
        for udid in udids.prefix(100) { table.set(-1, for: udid) }
        #expect(table.count == reference.count)
        #expect(udids.prefix(100).allSatisfy { table.id(of: $0) == -1 })
        // Identifiers one byte away from those met are not found.
        for udid in udids.prefix(500) where !udid.isEmpty {
            let other = String(udid.dropLast()) + (udid.last == "0" ? "1" : "0")
            #expect(table.id(of: other) == reference[other])
        }
        table.removeAll()
        #expect(table.count == 0)
        #expect(udids.allSatisfy { table.id(of: $0) == nil })
    }
}
