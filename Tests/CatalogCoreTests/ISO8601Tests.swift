import Foundation
import Testing
import CatalogTestSupport
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

    /// The civil arithmetic gives what the C library's proleptic Gregorian `gmtime_r` gives, over
    /// the whole range of four-digit years, at day boundaries and before 1970; past it, no date.
    @Test func formatMatchesTheCLibraryOverEveryFourDigitYear() {
        let first: Int64 = -62_167_219_200, last: Int64 = 253_402_300_799
        var instants: [Int64] = [first, first + 1, last - 1, last, -1, 0, 1, 86_399, 86_400, -86_400, -86_401,
                                 951_782_400, 951_868_799, 4_107_542_400, -2_203_891_200]
        var random = SeededRandom(seed: 8601)
        for _ in 0..<20_000 { instants.append(first + Int64(random.next() % UInt64(last - first + 1))) }
        for instant in instants {
            var seconds = time_t(instant)
            var parts = tm()
            guard gmtime_r(&seconds, &parts) != nil else {
                Issue.record("gmtime_r failed for \(instant)")
                continue
            }
            let expected = String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                                  Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
            #expect(ISO8601.format(Date(timeIntervalSince1970: TimeInterval(instant))) == expected, "\(instant)")
            #expect(ISO8601.format(Date(timeIntervalSince1970: TimeInterval(instant) + 0.75)) == expected, "\(instant)")
        }
        for outside in [Double(first) - 1, Double(last) + 1, .nan, .infinity, -.infinity, 1e300] {
            #expect(ISO8601.format(Date(timeIntervalSince1970: outside)) == "invalid-date", "\(outside)")
        }
    }

    /// The stored form is read in place; every instant of the four-digit years parses back to
    /// itself, and impossible stored-looking texts are no date, as the general parse says.
    @Test func parsesTheStoredFormBackOverEveryFourDigitYear() {
        let first: Int64 = -62_167_219_200, last: Int64 = 253_402_300_799
        var instants: [Int64] = [first, last, -1, 0, 1, 86_399, 86_400, 951_782_400, 951_868_799]
        var random = SeededRandom(seed: 1950)
        for _ in 0..<20_000 { instants.append(first + Int64(random.next() % UInt64(last - first + 1))) }
        for instant in instants {
            let text = ISO8601.format(Date(timeIntervalSince1970: TimeInterval(instant)))
            #expect(ISO8601.parse(text) == Date(timeIntervalSince1970: TimeInterval(instant)), "\(text)")
        }
        for impossible in ["2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-01-01T24:00:00Z",
                           "2026-01-01T00:60:00Z", "2026-01-01T00:00:61Z", "2026-00-10T00:00:00Z",
                           "2026-01-00T00:00:00Z", "2026-0a-01T00:00:00Z", "2026-01-01T00:00:00z",
                           "2026/01/01T00:00:00Z", "+026-01-01T00:00:00Z"] {
            #expect(ISO8601.parse(impossible) == nil, "\(impossible)")
        }
        #expect(ISO8601.parse("2024-02-29T23:59:59Z").map(ISO8601.format) == "2024-02-29T23:59:59Z")
    }

    /// The listing's quoted form is the formatted text in quotes, dates that are none included.
    @Test func appendQuotedIsTheFormattedTextInQuotes() {
        let dates = [0, 1_700_000_000.5, -62_167_219_200, 253_402_300_799, -1e18, .nan, .infinity, 1e300]
            .map(Date.init(timeIntervalSince1970:))
        for date in dates {
            var out = Array("prefix".utf8)
            ISO8601.appendQuoted(date, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == "prefix\"" + ISO8601.format(date) + "\"")
        }
        #expect(ISO8601.format(Date(timeIntervalSince1970: .nan)) == "invalid-date")
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
