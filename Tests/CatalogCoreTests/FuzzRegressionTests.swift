import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

/// Inputs the libFuzzer targets in `Fuzz/` crashed, hung or blew up on, kept so the fixes stay fixed.
/// The files are written by `Fixtures/scripts/make_fuzz_regressions.py` (exact bytes as hex) and
/// named after the target that found them; each test feeds its file through that target's entry
/// point and all the way to the JSON the CLI prints, and checks the outcome, not just survival.
@Suite struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: TestPaths.fixtures).appendingPathComponent("fuzz-regressions")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// Both entry points that reach a profile must refuse the file with a clear error naming it.
    static func expectRefused(_ name: String) throws {
        let bytes = try bytes(name)
        #expect(throws: DecodeError.self) { try ProfileDecoder.decode(bytes, path: name) }
        do {
            _ = try FileDecoder.decode(bytes: bytes, path: name)
            Issue.record("\(name) decoded; a date out of range must be refused")
        } catch let error as DecodeError {
            #expect(error.kind == .malformedPlist)
            #expect(error.path == name)
            #expect(error.reason.contains("date out of range"))
        }
    }

    // MARK: profile target

    /// A bplist date is a raw Double; one past Int.max seconds (in an unknown key) trapped
    /// `ISO8601.format`'s time_t conversion when the profile was printed. Such dates are now a
    /// malformed plist, and the formatter no longer traps on any Date.
    @Test func profileDateBeyondTimeT() throws {
        try Self.expectRefused("profile-date-overflow")
    }

    /// The same, hand-minimised: NaN and 1e300 in the required dates.
    @Test func profileRequiredDatesNaNAndHuge() throws {
        try Self.expectRefused("profile-date-nan")
    }

    @Test func formatsEveryNonFiniteOrOutOfRangeDate() {
        for seconds in [Double.nan, .infinity, -.infinity, 1e19, -1e19, .greatestFiniteMagnitude] {
            #expect(ISO8601.format(Date(timeIntervalSince1970: seconds)) == "invalid-date")
        }
        #expect(ISO8601.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
    }
}
