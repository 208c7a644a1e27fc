import CatalogCore
import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogIngest
@testable import CatalogStore

/// The catalogue keeps each raw plist compressed with its certificates by reference (each stored
/// once), and gives back every one byte for byte.
@Suite(.timeLimit(.minutes(10)))
struct RawPlistRecoveryTests {
    @Test func everyFixtureProfileComesBackByteForByte() throws {
        let scratch = try Scratch()
        let db = scratch.file("catalog.sqlite")
        try ingest([IngestPaths.fixtures], db: db)
        let result = try checkRecovery(under: IngestPaths.fixtures, db: db)
        #expect(result.compared >= 20, "fixture profiles compared: \(result.compared)")
        #expect(result.referring >= 10, "fixture profiles whose certificates are references: \(result.referring)")
    }

    @Test(.enabled(if: IngestPaths.realCorpus != nil, Comment(rawValue: TestPaths.realCorpusAbsent)))
    func everyRealCorpusProfileComesBackByteForByte() throws {
        let corpus = try #require(IngestPaths.realCorpus)
        let scratch = try Scratch()
        let db = scratch.file("catalog.sqlite")
        try ingest([corpus + "/tree"], db: db)
        let result = try checkRecovery(under: corpus + "/tree", db: db)
        #expect(result.compared >= 10, "real-corpus profiles compared: \(result.compared)")
        #expect(result.referring == result.compared, "every real profile's certificates should be references")
    }

    @Test func theCompactCatalogueIsSmallerAndEachCertificateIsStoredOnce() throws {
        let scratch = try Scratch()
        let db = scratch.file("catalog.sqlite")
        try ingest([IngestPaths.fixtures + "/profiles"], db: db)
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        var stored = 0, original = 0
        for uuid in try connection.strings("SELECT uuid FROM profiles") {
            let row = try connection.queryFirst(Self.storedPlist, [.text(uuid)])
            stored += try #require(row?[0].blob).count
            let plist = try connection.rawPlist(uuid: uuid)
            original += try #require(plist).count
        }
        #expect(original > 0)
        #expect(stored * 2 < original, "stored \(stored) bytes for \(original) bytes of plists")
        let certificates = try connection.count("SELECT count(DISTINCT certificate_sha1) AS n FROM profile_certificates")
        #expect(certificates > 0)
        #expect(try connection.count("SELECT count(*) AS n FROM certificate_der") == certificates)
        #expect(try connection.rawPlist(uuid: "00000000-0000-0000-0000-000000000000") == nil)
    }

    @Test func aMissingCertificateIsAnErrorNamingTheProfile() throws {
        let scratch = try Scratch()
        let db = scratch.file("catalog.sqlite")
        try ingest([IngestPaths.fixtures + "/profiles"], db: db)
        let writable = try Connection.openCatalogue(path: db)
        try writable.execute("DELETE FROM certificate_der")
        // Every XML profile with a certificate refers to certificate_der.
        var failed = 0
        for uuid in try writable.strings("SELECT uuid FROM profiles WHERE certificate_count > 0") {
            do {
                _ = try writable.rawPlist(uuid: uuid)
            } catch let error as StoreError {
                failed += 1
                #expect("\(error)".contains(uuid) && "\(error)".contains("not in the catalogue"), "\(error)")
            }
        }
        #expect(failed >= 10, "profiles that needed a certificate: \(failed)")
    }

    /// A profile's content hash and its plist as stored (in its own table since migration 0016).
    static let storedPlist = """
        SELECT pl.raw_plist, p.sha256 FROM profiles p JOIN profile_plists pl ON pl.profile_id = p.id WHERE p.uuid = ?
        """

    /// Decodes every profile file under `root` and compares its plist with what the catalogue gives
    /// back for its UUID, when the catalogue holds that content (two fixtures may share a UUID).
    /// `referring`: those stored in format 4 with a reference for each of their certificates.
    private func checkRecovery(under root: String, db: String) throws -> (compared: Int, referring: Int) {
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        var compared = 0, referring = 0
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        for relative in files.sorted() where relative.hasSuffix(".mobileprovision") || relative.hasSuffix(".provisionprofile") {
            guard let bytes = try? readBytes(root + "/" + relative),
                  let profile = try? ProfileDecoder.decode(bytes, trust: nil) else { continue }
            guard let row = try connection.queryFirst(Self.storedPlist, [.text(profile.uuid)]),
                  row.string("sha256") == profile.sha256 else { continue }
            let recovered = try connection.rawPlist(uuid: profile.uuid)
            #expect(recovered == profile.rawPlist, "\(relative): the raw plist did not come back byte for byte")
            compared += 1
            let stored = row.blob("raw_plist") ?? []
            #expect(stored.starts(with: [0x00, 0x43, 0x50, 0x04]), "\(relative): not stored in format 4")
            // The reference count, a u16 after the magic, length and CRC-32.
            if stored.count > 14, !profile.certificates.isEmpty,
               Int(stored[12]) | Int(stored[13]) << 8 == profile.certificates.count { referring += 1 }
        }
        return (compared, referring)
    }
}
