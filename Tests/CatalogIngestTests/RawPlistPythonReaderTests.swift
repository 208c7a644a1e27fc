import CatalogCore
import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogIngest
@testable import CatalogStore

/// `docs/raw_plist.py`, the reference reader of the stored-plist format, gives back every profile's
/// plist byte for byte from a catalogue the ingester wrote.
@Suite(.timeLimit(.minutes(10)))
struct RawPlistPythonReaderTests {
    /// `python3` on the PATH, if any.
    static let python3: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        .split(separator: ":").map { $0 + "/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Skipped with a reason where python3 is missing, but never under `.ci/run`, which must run it.
    static let canRun = python3 != nil || TestPaths.toolsRequired

    static let reader = TestPaths.packageRoot + "/docs/raw_plist.py"

    @Test(.enabled(if: canRun, "needs python3 to run docs/raw_plist.py (.ci/run installs it)"), .timeLimit(.minutes(10)))
    func thePythonReaderGivesBackEveryFixtureProfile() throws {
        try checkEveryProfile(under: IngestPaths.fixtures, atLeast: 20)
    }

    @Test(.enabled(if: canRun && IngestPaths.realCorpus != nil,
                   "needs python3 and ../shared/real-corpus (absent or hidden by CATALOG_TEST_NO_REAL_CORPUS)"),
          .timeLimit(.minutes(10)))
    func thePythonReaderGivesBackEveryRealCorpusProfile() throws {
        try checkEveryProfile(under: try #require(IngestPaths.realCorpus) + "/tree", atLeast: 10)
    }

    /// Run as a command, the module writes one profile's plist to standard output.
    @Test(.enabled(if: canRun, "needs python3 to run docs/raw_plist.py (.ci/run installs it)"), .timeLimit(.minutes(10)))
    func theReaderRunsAsACommand() throws {
        let scratch = try Scratch()
        let db = try fixtureProfilesCatalogue(in: scratch)
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        let uuid = try #require(try connection.strings("SELECT uuid FROM profiles WHERE certificate_count > 0 ORDER BY uuid").first)
        let result = try Self.python([Self.reader, db, uuid.lowercased()])
        #expect(result.status == 0, "\(String(decoding: result.stderr, as: UTF8.self))")
        #expect(result.stdout == (try connection.rawPlist(uuid: uuid)))
        let missing = try Self.python([Self.reader, db, "00000000-0000-0000-0000-000000000000"])
        #expect(missing.status == 1 && missing.stdout.isEmpty)
    }

    /// A row in format 3 (format 4 without the device lines in its dictionary, written by earlier
    /// builds of 0.2.0) is read by both readers.
    @Test(.enabled(if: canRun, "needs python3 to run docs/raw_plist.py (.ci/run installs it)"), .timeLimit(.minutes(10)))
    func aFormatThreeRowIsReadToo() throws {
        let scratch = try Scratch()
        let db = try fixtureProfilesCatalogue(in: scratch)
        let connection = try Connection.openCatalogue(path: db, readOnly: false)
        let uuid = try #require(try connection.strings("""
            SELECT uuid FROM profiles WHERE certificate_count > 0 AND device_count > 0 ORDER BY uuid
            """).first)
        let original = try #require(try connection.rawPlist(uuid: uuid))
        let certificates = try connection.rows("""
            SELECT d.sha1, d.der FROM profile_certificates pc JOIN certificate_der d ON d.sha1 = pc.certificate_sha1
            JOIN profiles p ON p.id = pc.profile_id WHERE p.uuid = ?
            """, [.text(uuid)]).map { (der: $0.blob("der") ?? [], sha1: $0.string("sha1") ?? "") }
        var formatThree = StoredPlist.encode(original, certificates: certificates).bytes
        #expect(formatThree.starts(with: [0x00, 0x43, 0x50, 0x04]) && formatThree.count > 14 && formatThree[12] > 0)
        formatThree[3] = 3
        try connection.write("""
            UPDATE profile_plists SET raw_plist = ? WHERE profile_id = (SELECT id FROM profiles WHERE uuid = ?)
            """, [.blob(formatThree), .text(uuid)])
        #expect(try connection.rawPlist(uuid: uuid) == original)
        let result = try Self.python([Self.reader, db, uuid])
        #expect(result.status == 0, "\(String(decoding: result.stderr, as: UTF8.self))")
        #expect(result.stdout == original)
    }

    /// A catalogue in `scratch` holding the fixture profiles; its path.
    private func fixtureProfilesCatalogue(in scratch: Scratch) throws -> String {
        let db = scratch.file("catalog.sqlite")
        try ingest([IngestPaths.fixtures + "/profiles"], db: db)
        return db
    }

    /// Ingests `root`, has the Python reader rebuild every catalogued profile's plist, and compares
    /// each with the plist of the profile file it came from (and with `Connection.rawPlist(uuid:)`).
    private func checkEveryProfile(under root: String, atLeast minimum: Int) throws {
        let scratch = try Scratch()
        let db = scratch.file("catalog.sqlite")
        try ingest([root], db: db)
        let connection = try Connection.openCatalogue(path: db, readOnly: true)
        // The plist of each profile file, by UUID, where the catalogue holds that file's content.
        var originals: [String: [UInt8]] = [:]
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        for relative in files where relative.hasSuffix(".mobileprovision") || relative.hasSuffix(".provisionprofile") {
            guard let bytes = try? readBytes(root + "/" + relative),
                  let profile = try? ProfileDecoder.decode(bytes, trust: nil),
                  try connection.queryFirst("SELECT sha256 FROM profiles WHERE uuid = ?", [.text(profile.uuid)])?
                      .string("sha256") == profile.sha256 else { continue }
            originals[profile.uuid] = profile.rawPlist
        }
        // One process for all: each profile's UUID, then its plist in hex.
        let script = """
            import sqlite3, sys
            sys.path.insert(0, sys.argv[1])
            import raw_plist
            connection = sqlite3.connect(sys.argv[2])
            for (uuid,) in connection.execute("SELECT uuid FROM profiles ORDER BY uuid").fetchall():
                print(uuid, raw_plist.raw_plist(connection, uuid.lower()).hex())
            """
        let result = try Self.python(["-c", script, TestPaths.packageRoot + "/docs", db])
        #expect(result.status == 0, "\(String(decoding: result.stderr, as: UTF8.self))")
        var compared = 0, fromFiles = 0
        for line in String(decoding: result.stdout, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let plist = HexDigits.bytes(fields[1].utf8) else {
                Issue.record("unexpected output: \(line.prefix(80))")
                continue
            }
            let uuid = String(fields[0])
            #expect(plist == (try connection.rawPlist(uuid: uuid)), "\(uuid): Python and Swift disagree")
            if let original = originals[uuid] {
                #expect(plist == original, "\(uuid): not the profile file's plist")
                fromFiles += 1
            }
            compared += 1
        }
        #expect(compared == (try connection.count("SELECT count(*) AS n FROM profiles")))
        #expect(fromFiles >= minimum, "profiles compared with their files: \(fromFiles)")
        #expect(fromFiles == originals.count)
    }

    /// Runs `python3` with `arguments`; its exit status and raw output.
    static func python(_ arguments: [String]) throws -> (status: Int32, stdout: [UInt8], stderr: [UInt8]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(python3, "python3 is not on the PATH"))
        process.arguments = arguments
        let (status, out, err) = try CatalogProcess.capture(process)
        return (status, Array(out), Array(err))
    }
}
