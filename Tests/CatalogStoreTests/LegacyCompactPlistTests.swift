import CatalogCore
import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogStore

/// Raw plists stored in formats 1 and 2, which nothing writes any more, still read: a value the
/// old writer stored, and hand-made ones for what it left out.
struct LegacyCompactPlistTests {
    static let certificate = Array((0..<700).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
    static let blob = Array((0..<301).map { UInt8(truncatingIfNeeded: $0 &* 91 &+ 5) })
    static let udids: [Int64: String] = [5: "0123456789abcdef0123456789abcdef01234567",
                                         300: "00008030-001A2B3C4D5E6F70", 70_000: "my-test-iPad"]

    /// The plist of ``formatTwo``: a one-line DER profile, a certificate on lines of 64 characters,
    /// three devices the profile listed (stored by id) and two it did not (stored as bytes).
    static var plist: [UInt8] {
        let wrapped = Data(certificate).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
            .split(separator: "\n").map { "\t\t" + $0 }.joined(separator: "\n")
        return Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>DER-Encoded-Profile</key>
            \t<data>\(Data(blob).base64EncodedString())</data>
            \t<key>DeveloperCertificates</key>
            \t<array>
            \t\t<data>
            \(wrapped)
            \t\t</data>
            \t</array>
            \t<key>ProvisionedDevices</key>
            \t<array>
            \t\t<string>0123456789abcdef0123456789abcdef01234567</string>
            \t\t<string>00008030-001A2B3C4D5E6F70</string>
            \t\t<string>my-test-iPad</string>
            \t\t<string>ffffffffffffffffffffffffffffffffffffffff</string>
            \t\t<string>00008101-0011694111B8001E</string>
            \t</array>
            </dict>
            </plist>

            """.utf8)
    }

    /// What the format-2 writer stored for ``plist`` (its devices' ids 5, 300 and 70000).
    static let formatTwo = HexDigits.bytes(("""
        0043500259070000db75ef0a5b787d4628325163c826b6e8255c26122c5c98d6323180803505650ce3055fadd74bf2e72e356fb81fdfafb993a7
        43b76e8b033330726098011852d80b215252100b8308b6b4439a303303765398191954b1a5218ce80100e71f7c98cd020560bb1671cc2782dd38
        93ee49a4ff5ab5106bc6217cd7328de8439ef954af0a65c01b76d12c87e23d98f34ea9045fba1570cb2681dc3792ed48a3fe59b40f6ac5207bd6
        318ce7429df853ae0964bf1a75d02b86e13c97f24da8035eb9146fca2580db3691ec47a2fd58b30e69c41f7ad5308be6419cf752ad0863be1974
        cf2a85e03b96f14ca7025db8136ec9247fda3590eb46a1fc57b20d68c31e79d42f8ae5409bf651ac0762bd1873ce2984df3a95f04ba6015cb71
        26dc8237ed9348fea45a0fb56b10c67c21d78d32e89e43f9af550ab0661bc1772cd2883de3994ef4aa5005bb6116cc7227dd8338ee9449ffa55b
        00b66c11c77d22d88e33e99f44faa0560bb1671cc2782dd3893ee49a4ff5ab5106bc6217cd7328de8439ef954af0a65c01b76d12c87e23d98f3
        4ea9ffffffffffffffffffffffffffffffffffffffff000081010011694111b8001e05ac02f0a204
        """).filter { !$0.isWhitespace }.utf8)!

    private func decode(_ stored: [UInt8], udids: [Int64: String] = Self.udids) throws -> [UInt8] {
        try StoredPlist.decode(stored, certificate: { $0 == Digest.sha1Hex(Self.certificate) ? Self.certificate : nil },
                               device: { udids[$0] })
    }

    @Test func aValueTheOldWriterStoredStillReads() throws {
        #expect(Self.formatTwo.count == 445)
        #expect(try decode(Self.formatTwo) == Self.plist)
        #expect(throws: StoredPlistError.self) { try decode(Self.formatTwo, udids: [5: Self.udids[5]!, 300: Self.udids[300]!]) }
        #expect(throws: StoredPlistError.self) {
            try StoredPlist.decode(Self.formatTwo, certificate: { _ in nil }, device: { Self.udids[$0] })
        }
    }

    @Test func damageIsDetected() throws {
        var random = SeededRandom(seed: 11)
        var rejected = 0
        for round in 0..<1000 {
            var damaged = Self.formatTwo
            damaged[Int.random(in: 0..<damaged.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            do {
                #expect(try decode(damaged) == Self.plist, "round \(round): damage gave other bytes")
            } catch is StoredPlistError {
                rejected += 1
            }
        }
        #expect(rejected > 900)
    }

    /// A value of `format` around `template`, deflated with the old dictionary, claiming `length`
    /// and `crc`, with `blobs` (and for format 2 a device section) after it.
    private static func value(template: [UInt8], length: Int, crc: UInt32 = 0, format: UInt8,
                              blobs: [UInt8] = [], devices: [UInt8] = []) throws -> [UInt8] {
        let deflated = try Zlib.deflate(template, level: 6, dictionary: LegacyCompactPlist.dictionary)
        var out: [UInt8] = [0x00, 0x43, 0x50, format]
        for field in [UInt32(length), crc] { out += withUnsafeBytes(of: field.littleEndian, Array.init) }
        // Lengths below 128 are one-byte varints.
        out += [UInt8(deflated.count)] + deflated
        if format == 2 { out.append(UInt8(blobs.count)) }
        return out + blobs + devices
    }

    /// Format 1 has no blob length and no device section; op 04 is not part of it; an unknown
    /// format is an error, not a plist.
    @Test func formatOneValuesStillRead() throws {
        let original = Array("<string>0123456789abcdef0123456789abcdef01234567</string>".utf8)
        let template: [UInt8] = [0, 8] + Array("<string>".utf8) + [3, 0] + [0, 9] + Array("</string>".utf8)
        let blobs: [UInt8] = [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB,
                              0xCD, 0xEF, 0x01, 0x23, 0x45, 0x67]
        let crc = Zlib.crc32(original)
        #expect(try decode(try Self.value(template: template, length: original.count, crc: crc, format: 1, blobs: blobs)) == original)
        #expect(try decode(try Self.value(template: template, length: original.count, crc: crc, format: 2, blobs: blobs)) == original)
        let reference = try Self.value(template: [0, 8] + Array("<string>".utf8) + [4], length: 9, format: 1, devices: [5])
        #expect(throws: StoredPlistError.self) { try decode(reference) }
        // A layout of one-character lines for an empty blob, longer than the declared length.
        let hostile: [UInt8] = [2, 0, 1, 0, 100] + [UInt8](repeating: 0x20, count: 100) + [0]
        #expect(throws: StoredPlistError.self) { try decode(try Self.value(template: hostile, length: 50, format: 2)) }
    }

    /// In a catalogue: `Connection.rawPlist(uuid:)` finds the certificate in `certificate_der` and
    /// the devices in `devices` by id.
    @Test func aCatalogueRowInFormatTwoReads() throws {
        let directory = try Scratch()
        let connection = try Connection.openCatalogue(path: directory.file("catalogue.sqlite"))
        try connection.execute("""
            INSERT INTO profiles (id, uuid, name, kind, creation_date, expiration_date, effective_expiration_date,
                expiry_cause, sha256, first_seen, last_seen)
            VALUES (1, 'A', 'n', 'development', '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z',
                '2027-01-01T00:00:00Z', 'profile', 'AB', '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z')
            """)
        try connection.execute("INSERT INTO profile_plists (profile_id, raw_plist) VALUES (1, ?)", [.blob(Self.formatTwo)])
        try connection.execute("INSERT INTO certificate_der (sha1, der) VALUES (?, ?)",
                               [.text(Digest.sha1Hex(Self.certificate)), .blob(Self.certificate)])
        for (id, udid) in Self.udids {
            try connection.execute("INSERT INTO devices (id, udid, first_seen) VALUES (?, ?, '2026-11-01T00:00:00Z')",
                                   [.integer(id), .text(udid)])
        }
        #expect(try connection.rawPlist(uuid: "a") == Self.plist)
        try connection.execute("DELETE FROM devices WHERE id = 300")
        #expect(throws: StoreError.self) { try connection.rawPlist(uuid: "a") }
    }
}
