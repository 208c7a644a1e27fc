import CatalogCore
import CatalogTestSupport
import Foundation
import Testing
@testable import CatalogStore

/// A profile's `first_seen` and `last_seen` are the earliest and latest sighting, whatever order the
/// runs that saw it wrote in: hosts of a fleet whose runs began a second apart (or whose clocks
/// disagree) meet a new profile in either order.
struct ProfileSightingTests {
    @Test func anEarlierSightingWrittenLaterMovesFirstSeenBack() throws {
        let folder = try Scratch()
        let db = try Connection.openCatalogue(path: folder.file("catalog.sqlite"))
        let writer = CatalogWriter(db)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestPaths.fixtures + "/profiles/bare-plist.mobileprovision")))
        let profile = try ProfileDecoder.decode(bytes, trust: nil)
        let (early, middle, late) = (Date(timeIntervalSince1970: 1_780_000_000),
                                     Date(timeIntervalSince1970: 1_780_000_001),
                                     Date(timeIntervalSince1970: 1_780_000_100))
        func sightings() throws -> [String?] {
            let row = try db.queryFirst("SELECT first_seen, last_seen FROM profiles WHERE uuid = ?", [.text(profile.uuid)])
            return [row?.string("first_seen"), row?.string("last_seen")]
        }
        #expect(try writer.upsertProfile(profile, at: middle) == .new)
        #expect(try writer.upsertProfile(profile, at: early) == .unchanged)
        #expect(try sightings() == [SQLDate.string(from: early), SQLDate.string(from: middle)])
        #expect(try writer.upsertProfile(profile, at: late) == .unchanged)
        #expect(try sightings() == [SQLDate.string(from: early), SQLDate.string(from: late)])
        // Seen again inside the range: nothing moves.
        #expect(try writer.upsertProfile(profile, at: middle) == .unchanged)
        #expect(try sightings() == [SQLDate.string(from: early), SQLDate.string(from: late)])
    }
}
