import Foundation
import Testing
@testable import CatalogCore

/// Inputs the libFuzzer targets in `Fuzz/` crashed, hung or blew up on, kept so the fixes stay fixed.
/// The files are written by `Fixtures/scripts/make_fuzz_regressions.py` (exact bytes as hex) and
/// named after the target that found them; each test feeds its file through that target's entry
/// point and all the way to the JSON the CLI prints, and checks the outcome, not just survival.
@Suite struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz-regressions")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// The profile as `catalog decode --json` renders it, through both entry points that reach it.
    static func renderedProfile(_ name: String) throws -> String {
        let bytes = try bytes(name)
        let profile = try ProfileDecoder.decode(bytes, path: name)
        let viaFileDecoder = try FileDecoder.decode(bytes: bytes, path: name)
        guard case .profile = viaFileDecoder else {
            Issue.record("\(name) decoded as \(viaFileDecoder), expected a profile")
            return ""
        }
        _ = viaFileDecoder.json(path: name).serialized(pretty: true)
        return profile.json.serialized()
    }

    // MARK: profile target

    /// A bplist date is a raw Double; one past Int.max seconds (in an unknown key) trapped
    /// `ISO8601.format`'s time_t conversion when the profile was printed.
    @Test func profileDateBeyondTimeT() throws {
        let json = try Self.renderedProfile("profile-date-overflow")
        #expect(json.contains("\"invalid-date\""))
    }

    /// The same, hand-minimised: NaN and 1e300 in the required dates decode, and print as invalid.
    @Test func profileRequiredDatesNaNAndHuge() throws {
        let profile = try ProfileDecoder.decode(try Self.bytes("profile-date-nan"))
        #expect(profile.creationDate.timeIntervalSinceReferenceDate.isNaN)
        #expect(ISO8601.format(profile.creationDate) == "invalid-date")
        #expect(ISO8601.format(profile.expirationDate) == "invalid-date")
        let json = try Self.renderedProfile("profile-date-nan")
        #expect(json.contains("\"creation_date\":\"invalid-date\""))
        #expect(json.contains("\"expiration_date\":\"invalid-date\""))
    }

    @Test func formatsEveryNonFiniteOrOutOfRangeDate() {
        for seconds in [Double.nan, .infinity, -.infinity, 1e19, -1e19, .greatestFiniteMagnitude] {
            #expect(ISO8601.format(Date(timeIntervalSince1970: seconds)) == "invalid-date")
        }
        #expect(ISO8601.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
    }
}
