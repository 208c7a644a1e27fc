import CatalogCore
import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogStore

/// The stored-plist format (format 4): zlib over the plist with each certificate's base64 replaced
/// by a reference and the profile's devices in the preset dictionary, laid out as
/// docs/catalogue-file.md and `docs/raw_plist.py` say; every plist comes back exactly, and damage is
/// detected.
struct StoredPlistTests {
    /// A small "certificate" and a blob that is none (a DER profile), as base64 in several layouts.
    private let certificate = Array((0..<700).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
    private let blob = Array((0..<301).map { UInt8(truncatingIfNeeded: $0 &* 91 &+ 5) })
    private var sha1: String { Digest.sha1Hex(certificate) }

    private func plist(_ certificateText: String, _ blobText: String) -> [UInt8] {
        Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>DER-Encoded-Profile</key>
            \t<data>\(blobText)</data>
            \t<key>DeveloperCertificates</key>
            \t<array>
            \t\t<data>\(certificateText)</data>
            \t</array>
            </dict>
            </plist>

            """.utf8)
    }

    /// `bytes` in base64 on lines of `width`, each after `indent`, as plistlib writes `<data>`.
    private func wrapped(_ bytes: [UInt8], width: Int, indent: String, newline: String = "\n") -> String {
        let text = Array(Data(bytes).base64EncodedString())
        let lines = stride(from: 0, to: text.count, by: width).map { String(text[$0..<min($0 + width, text.count)]) }
        return newline + lines.map { indent + $0 }.joined(separator: newline) + newline + indent
    }

    /// Encodes `original` with the certificate, checks it comes back, and returns what was stored.
    @discardableResult
    private func roundTrip(_ original: [UInt8], referring: Bool = true, devices: [String] = []) throws -> StoredPlist.Encoded {
        let encoded = StoredPlist.encode(original, certificates: [(certificate, sha1)], devices: devices)
        #expect(encoded.bytes.starts(with: [0x00, 0x43, 0x50, 0x04]))
        #expect(encoded.certificates.keys.contains(sha1) == referring)
        #expect(try StoredPlist.decode(encoded.bytes, certificate: { $0 == sha1 ? certificate : nil },
                                       devices: { devices }) == original)
        return encoded
    }

    @Test func oneLineBase64AsApplesProfilesHaveIt() throws {
        let encoded = try roundTrip(plist(Data(certificate).base64EncodedString(), Data(blob).base64EncodedString()))
        #expect(encoded.certificates == [sha1: certificate])
    }

    @Test func wrappedBase64AsPythonsPlistlibWritesIt() throws {
        try roundTrip(plist(wrapped(certificate, width: 68, indent: "\t\t"), wrapped(blob, width: 76, indent: "\t")))
        try roundTrip(plist(wrapped(certificate, width: 64, indent: "  ", newline: "\r\n"), wrapped(blob, width: 60, indent: "")))
        // A last line as long as the others, and one digit long.
        try roundTrip(plist(wrapped(certificate, width: 4, indent: " "), ""))
        try roundTrip(plist(wrapped(certificate, width: 935, indent: "\t"), ""))
    }

    /// Text that is not the certificate's base64 on lines of one width stays in the stream as it is.
    @Test func otherTextStaysAsItIs() throws {
        let digits = Data(certificate).base64EncodedString()
        let uneven = String(digits.prefix(60)) + "\n" + String(digits.dropFirst(60).prefix(64)) + "\n" + digits.dropFirst(124)
        for text in [uneven, digits.replacingOccurrences(of: "=", with: ""), digits + "\n\t" + "AAAA", " \t\n",
                     Data(blob).base64EncodedString(), String(digits.dropLast(4))] {
            try roundTrip(plist(text, ""), referring: false)
        }
        // The same certificate twice, the DER profile's text left alone.
        let twice = plist(digits, Data(blob).base64EncodedString()) + plist(wrapped(certificate, width: 76, indent: ""), "")
        let encoded = try roundTrip(twice)
        #expect(encoded.bytes[12] == 2 && encoded.bytes[13] == 0, "two references")
        // Binary plists, empty input and bytes that are no plist at all.
        for other in [[], Array("bplist00<data>".utf8) + certificate + [0, 0x43, 0x50, 3], Array("<data></data><data>".utf8)] {
            try roundTrip(other, referring: false)
        }
    }

    /// The bytes are what the README and `docs/raw_plist.py` read: magic, length, CRC-32, the
    /// references, and a zlib stream with the preset dictionary holding the rest of the text.
    @Test func theValueIsLaidOutAsDocumented() throws {
        let certificateText = wrapped(certificate, width: 68, indent: "\t\t")
        let original = plist(certificateText, Data(blob).base64EncodedString())
        let stored = try roundTrip(original).bytes
        var reader = ByteReader(stored)
        #expect(Array(try reader.readBytes(4)) == [0x00, 0x43, 0x50, 0x04])
        #expect(try reader.readUInt32(.littleEndian) == UInt32(original.count))
        #expect(try reader.readUInt32(.littleEndian) == Zlib.crc32(original))
        #expect(try reader.readUInt16(.littleEndian) == 1)
        let offset = try reader.readUInt32(.littleEndian)
        #expect(Array(try reader.readBytes(20)) == Digest.sha1(certificate))
        #expect(try reader.readUInt16(.littleEndian) == 68)
        #expect(try reader.readUInt8() == 3)
        #expect(Array(try reader.readBytes(3)) == Array("\n\t\t".utf8))
        let text = try Zlib.inflate(Array(reader.rest), dictionary: StoredPlist.dictionary, maxOutput: original.count)
        // The text is the plist without the certificate's lines (its first and last gaps stay).
        let digits = certificateText.trimmingCharacters(in: .whitespacesAndNewlines)
        let expected = String(decoding: original, as: UTF8.self).replacingOccurrences(of: digits, with: "")
        #expect(text == Array(expected.utf8))
        #expect(String(decoding: text.prefix(Int(offset)), as: UTF8.self).hasSuffix("<data>\n\t\t"))
    }

    /// Each device identifier is text zlib cannot shrink: in the dictionary, a profile's list costs
    /// a few bytes instead of about 20 a device. Reading needs the same devices in the same order.
    @Test func theProfilesDevicesAreInTheDictionary() throws {
        var random = SeededRandom(seed: 11)
        let devices = (0..<60).map { _ in String((0..<40).map { _ in "0123456789abcdef".randomElement(using: &random)! }) }
        let original = Array("""
            <plist version="1.0">
            <dict>
            \t<key>ProvisionedDevices</key>
            \t<array>
            \(devices.map { "\t\t<string>\($0)</string>\n" }.joined())\t</array>
            </dict>
            </plist>

            """.utf8)
        let stored = try roundTrip(original, referring: false, devices: devices).bytes
        let withoutDevices = try roundTrip(original, referring: false).bytes
        #expect(stored.count < 200 && withoutDevices.count > 60 * 19, "\(stored.count) and \(withoutDevices.count) bytes")
        for wrong in [[], Array(devices.reversed()), Array(devices.dropLast()), devices.map { $0.uppercased() }] {
            #expect(throws: StoredPlistError.self) {
                try StoredPlist.decode(stored, certificate: { _ in nil }, devices: { wrong })
            }
        }
    }

    @Test func aMissingOrWrongCertificateIsAnError() throws {
        let encoded = try roundTrip(plist(Data(certificate).base64EncodedString(), ""))
        #expect(throws: StoredPlistError.self) { try StoredPlist.decode(encoded.bytes) { _ in nil } }
        var other = certificate
        other[0] ^= 1
        #expect(throws: StoredPlistError.self) { try StoredPlist.decode(encoded.bytes) { _ in other } }
    }

    /// No damaged value comes back as other bytes: each either fails or, where the damage is in
    /// bytes the decoder ignores, gives the plist.
    @Test func damageIsDetected() throws {
        let original = plist(wrapped(certificate, width: 64, indent: "\t\t"), Data(blob).base64EncodedString())
        let stored = try roundTrip(original).bytes
        var random = SeededRandom(seed: 7)
        var rejected = 0
        for round in 0..<2000 {
            var damaged = stored
            if round % 10 == 0 {
                damaged.removeLast(Int.random(in: 1..<damaged.count, using: &random))
            } else {
                damaged[Int.random(in: 0..<damaged.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            }
            do {
                let decoded = try StoredPlist.decode(damaged) { $0 == sha1 ? certificate : nil }
                #expect(decoded == original, "round \(round): damage gave other bytes")
            } catch is StoredPlistError {
                rejected += 1
            }
        }
        #expect(rejected > 1900)
    }

    /// Hand-made values in format 3 (format 4 without the device lines, still read): a reference past
    /// the text, references out of order, a length no profile has.
    @Test func hostileValuesAreErrors() throws {
        func value(length: Int, references: [(offset: UInt32, width: UInt16)], text: [UInt8]) throws -> [UInt8] {
            var out: [UInt8] = [0x00, 0x43, 0x50, 0x03]
            for field in [UInt32(length), Zlib.crc32(text)] { out += withUnsafeBytes(of: field.littleEndian, Array.init) }
            out += withUnsafeBytes(of: UInt16(references.count).littleEndian, Array.init)
            for reference in references {
                out += withUnsafeBytes(of: reference.offset.littleEndian, Array.init) + Digest.sha1(certificate)
                out += withUnsafeBytes(of: reference.width.littleEndian, Array.init) + [0]
            }
            return out + (try Zlib.deflate(text, level: 6, dictionary: StoredPlist.dictionary))
        }
        let text = Array("<data></data>".utf8)
        let good = try value(length: text.count + 936, references: [(6, 0)], text: text)
        let wanted = text[..<6] + Array(Data(certificate).base64EncodedData()) + text[6...]
        let crc = withUnsafeBytes(of: Zlib.crc32(Array(wanted)).littleEndian, Array.init)
        #expect(try StoredPlist.decode(Array(good[..<8]) + crc + good[12...]) { _ in certificate } == Array(wanted))
        for hostile in [try value(length: 100, references: [(14, 0)], text: text),
                        try value(length: 2000, references: [(6, 0), (2, 0)], text: text),
                        try value(length: 200, references: [(6, 1)], text: text),
                        try value(length: Int(UInt32.max), references: [], text: text),
                        [0x00, 0x43, 0x50, 0x05] + Array(good.dropFirst(4)), Array(good.prefix(13))] {
            #expect(throws: StoredPlistError.self) { try StoredPlist.decode(hostile) { _ in certificate } }
        }
    }

    /// A value that does not begin with the magic is the plist itself (rows from before migration 0010).
    @Test func anOldValueIsThePlistItself() throws {
        let original = plist(Data(certificate).base64EncodedString(), "")
        #expect(try StoredPlist.decode(original) { _ in nil } == original)
    }

    /// Every fixture profile, the DER profile never taken for a certificate.
    @Test func everyFixtureProfileRoundTrips() throws {
        let root = TestPaths.fixtures
        var compared = 0
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        for relative in files where relative.hasSuffix(".mobileprovision") || relative.hasSuffix(".provisionprofile") {
            guard let data = FileManager.default.contents(atPath: root + "/" + relative),
                  let profile = try? ProfileDecoder.decode(Array(data), trust: nil) else { continue }
            let encoded = StoredPlist.encode(profile)
            #expect(try StoredPlist.decode(encoded.bytes, certificate: { encoded.certificates[$0] },
                                           devices: { profile.devices }) == profile.rawPlist, "\(relative)")
            #expect(Set(encoded.certificates.keys).isSubset(of: Set(profile.certificates.map(\.sha1))), "\(relative)")
            compared += 1
        }
        #expect(compared >= 20)
    }
}
