import Foundation
import Testing
@testable import CatalogCore

@Suite struct ISO8601Tests {
    @Test(arguments: ["2026-11-29T10:00:00Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
                      "1969-12-31T23:59:59Z", "2000-02-29T12:34:56Z", "1970-01-01T00:00:00Z"])
    func formatsAndParsesBack(text: String) throws {
        let date = try #require(ISO8601.parse(text))
        #expect(ISO8601.format(date) == text)
    }

    @Test func formatMatchesFoundation() {
        let formatter = ISO8601DateFormatter()
        var random = SeededRandomDates(seed: 7)
        for _ in 0..<1000 {
            let date = Date(timeIntervalSince1970: random.next())
            #expect(ISO8601.format(date) == formatter.string(from: date))
        }
    }

    @Test func parsesOffsetsAndDatesWithoutTime() {
        #expect(ISO8601.parse("2026-11-29").map(ISO8601.format) == "2026-11-29T00:00:00Z")
        #expect(ISO8601.parse("2026-11-29T12:00:00+02:00").map(ISO8601.format) == "2026-11-29T10:00:00Z")
        #expect(ISO8601.parse("2026-02-30") == nil)
        #expect(ISO8601.parse("not a date") == nil)
    }
}

/// Whole-second instants spread over 1900–2100.
private struct SeededRandomDates {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(Int64(state >> 33) % 6_311_390_400) - 2_208_988_800
    }
}
