import CatalogCore
import Foundation
import Testing
@testable import CatalogStore

/// The compact raw-plist format (issue 15): every layout of `<data>` it replaces comes back exactly,
/// what it cannot rebuild stays literal, and damage is detected.
struct CompactPlistTests {
    /// A small "certificate" and a blob, as base64 in several layouts.
    private let certificate = Array((0..<700).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
    private let blob = Array((0..<301).map { UInt8(truncatingIfNeeded: $0 &* 91 &+ 5) })

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

    private func wrapped(_ bytes: [UInt8], width: Int, indent: String, crlf: Bool = false) -> String {
        let text = Data(bytes).base64EncodedString()
        let newline = crlf ? "\r\n" : "\n"
        var lines: [String] = []
        var index = text.startIndex
        while index < text.endIndex {
            let end = text.index(index, offsetBy: width, limitedBy: text.endIndex) ?? text.endIndex
            lines.append(String(text[index..<end]))
            index = end
        }
        return newline + lines.map { indent + $0 }.joined(separator: newline) + newline + indent
    }

    private var sha1: String { Digest.sha1Hex(certificate) }

    private func roundTrip(_ original: [UInt8], expectCertificateReference: Bool = true) throws {
        let encoded = try #require(CompactPlist.encode(original, certificateSHA1s: [sha1]))
        #expect(CompactPlist.isCompact(encoded.bytes))
        #expect(encoded.certificates.keys.contains(sha1) == expectCertificateReference)
        let decoded = try CompactPlist.decode(encoded.bytes) { $0 == sha1 ? certificate : nil }
        #expect(decoded == original)
    }

    @Test func oneLineBase64AsApplesProfilesHaveIt() throws {
        try roundTrip(plist(Data(certificate).base64EncodedString(), Data(blob).base64EncodedString()))
    }

    @Test func wrappedBase64AsPythonsPlistlibWritesIt() throws {
        try roundTrip(plist(wrapped(certificate, width: 68, indent: "\t\t"), wrapped(blob, width: 76, indent: "\t")))
        try roundTrip(plist(wrapped(certificate, width: 64, indent: "  ", crlf: true), wrapped(blob, width: 60, indent: "")))
    }

    /// Every line width, with a last line short, full or alone, and every padding: each becomes a
    /// reference and is rebuilt exactly (the encoder's own check would refuse a wrong rebuild).
    @Test func everyLineWidthAndPaddingComesBack() throws {
        for count in [1, 2, 3, 4, 5, 6, 47, 48, 700] {
            let bytes = Array(certificate.prefix(count))
            let sha1 = Digest.sha1Hex(bytes)
            for width in 1...81 {
                let original = plist(wrapped(bytes, width: width, indent: "\t"), "")
                let encoded = try #require(CompactPlist.encode(original, certificateSHA1s: [sha1]),
                                           "\(count) bytes in lines of \(width)")
                #expect(encoded.certificates[sha1] == bytes, "\(count) bytes in lines of \(width)")
                #expect(try CompactPlist.decode(encoded.bytes) { $0 == sha1 ? bytes : nil } == original)
            }
        }
    }

    @Test func deviceIdentifiersInBothSpellingsComeBackAndNearMissesStayLiteral() throws {
        let devices = ["0123456789abcdef0123456789abcdef01234567", "00008030-001A2B3C4D5E6F70",
                       "0123456789ABCDEF0123456789ABCDEF01234567", "0123456789abcdef0123456789abcdef0123456",
                       "00008030-001a2b3c4d5e6f70", "00008030_001A2B3C4D5E6F70", "ffffffffffffffffffffffffffffffffffffffff"]
        let text = "<plist><array>" + devices.map { "<string>\($0)</string>" }.joined(separator: "\n") + "<string>"
        try roundTrip(Array(text.utf8), expectCertificateReference: false)
        let encoded = try #require(CompactPlist.encode(Array(text.utf8), certificateSHA1s: []))
        // The two identifiers spelled as the format knows them are bytes at the end of the value.
        let hexBytes = Array(encoded.bytes.suffix(20 + 12 + 20))
        #expect(hexBytes.prefix(20) == [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB,
                                         0xCD, 0xEF, 0x01, 0x23, 0x45, 0x67])
        #expect(hexBytes.suffix(20) == [UInt8](repeating: 0xFF, count: 20))
    }

    @Test func textItCannotRebuildStaysLiteral() throws {
        let canonical = Data(certificate).base64EncodedString()
        // Uneven lines, a stray character, missing padding, an empty element: kept as they are.
        let uneven = String(canonical.prefix(10)) + "\n" + String(canonical.dropFirst(10))
        let bad = "!" + canonical
        let unpadded = Data(blob.prefix(10)).base64EncodedString().replacingOccurrences(of: "=", with: "")
        // Bits past the last byte: decodes to the same bytes, but their base64 is another text.
        var chars = Array(canonical)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        chars[chars.count - 3] = alphabet[alphabet.firstIndex(of: chars[chars.count - 3])! + 1]
        #expect(canonical.hasSuffix("=="))
        #expect(Data(base64Encoded: String(chars)).map(Array.init) == certificate)
        try roundTrip(plist(String(chars), ""), expectCertificateReference: false)
        try roundTrip(plist(uneven, ""), expectCertificateReference: false)
        try roundTrip(plist(bad, unpadded), expectCertificateReference: false)
        try roundTrip(Array("<plist><data></data><data>".utf8), expectCertificateReference: false)
        try roundTrip(Array("bplist00\u{0}\u{1}".utf8), expectCertificateReference: false)
    }

    @Test func aValueThatIsNotCompactIsThePlistItself() throws {
        let original = plist("AAAA", "")
        #expect(!CompactPlist.isCompact(original))
        #expect(try CompactPlist.decode(original) { _ in nil } == original)
    }

    @Test func damagedValuesThrowAndNeverCrash() throws {
        let original = plist(wrapped(certificate, width: 64, indent: "\t\t"), Data(blob).base64EncodedString())
        let encoded = try #require(CompactPlist.encode(original, certificateSHA1s: [sha1]))
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var rejected = 0
        for _ in 0..<2000 {
            var damaged = encoded.bytes
            for _ in 0..<(1 + next() % 4) {
                let index = CompactPlist.magic.count + next() % (damaged.count - CompactPlist.magic.count)
                damaged[index] = UInt8(truncatingIfNeeded: next())
            }
            if next() % 5 == 0 { damaged.removeLast(next() % (damaged.count / 2)) }
            do {
                let decoded = try CompactPlist.decode(damaged) { $0 == sha1 ? certificate : nil }
                #expect(decoded == original, "a damaged value decoded to something else")
            } catch is CompactPlistError {
                rejected += 1
            }
        }
        #expect(rejected > 1900)
        // Hand-made hostile templates: an empty blob in a layout of one-character lines.
        let hostile: [UInt8] = [2, 0, 1, 0, 100] + [UInt8](repeating: 0x20, count: 100) + [0]
        #expect(throws: CompactPlistError.self) { try CompactPlist.decode(Self.value(template: hostile, length: 50)) { _ in nil } }
    }

    /// A compact value of `format` around `template`, deflated with the format's dictionary, claiming
    /// `length` and `crc`, with `blobs` and (format 2) `devices` as its last sections.
    private static func value(template: [UInt8], length: Int, crc: UInt32 = 0, format: UInt8 = 2,
                              blobs: [UInt8] = [], devices: [UInt8] = []) throws -> [UInt8] {
        let deflated = try #require(Zlib.Deflater().deflate(template, dictionary: CompactPlist.dictionary))
        var out = CompactPlist.magicPrefix + [format]
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: length >> shift)) }
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: crc >> shift)) }
        CompactPlist.appendVarint(deflated.count, to: &out)
        out += deflated
        if format >= 2 { CompactPlist.appendVarint(blobs.count, to: &out) }
        return out + blobs + devices
    }

    /// Format 2: the profile's devices are stored as their `devices.id`s after the blob section, in
    /// any spelling, repeats included; other identifiers stay bytes; a missing device is an error.
    @Test func theProfilesDevicesAreStoredByReference() throws {
        let lower = "0123456789abcdef0123456789abcdef01234567", modern = "00008030-001A2B3C4D5E6F70"
        let odd = "my-test-iPad", stranger = "ffffffffffffffffffffffffffffffffffffffff"
        let text = "<plist><array><string>\(lower)</string><string>\(modern)</string><string>\(odd)</string>"
            + "<string>\(stranger)</string><string>\(lower)</string></array></plist>"
        let original = Array(text.utf8)
        let encoded = try #require(CompactPlist.encode(original, certificateSHA1s: [], devices: [lower, modern, odd, modern]))
        #expect(encoded.devices == [0, 1, 2, 0])
        let ids: [String: Int64] = [lower: 5, modern: 300, odd: 70_000]
        let stored = try #require(encoded.stored(deviceIDs: [5, 300, 70_000]))
        #expect(Array(stored.prefix(4)) == [0x00, 0x43, 0x50, 0x02])
        // The device section: 5, 300, 70000, 5 as varints; before it, the stranger's 20 bytes.
        #expect(Array(stored.suffix(7)) == [0x05, 0xAC, 0x02, 0xF0, 0xA2, 0x04, 0x05])
        #expect(Array(stored.dropLast(7).suffix(20)) == [UInt8](repeating: 0xFF, count: 20))
        let udids = Dictionary(uniqueKeysWithValues: ids.map { ($1, $0) })
        #expect(try CompactPlist.decode(stored, certificate: { _ in nil }, device: { udids[$0] }) == original)
        #expect(throws: CompactPlistError.self) {
            try CompactPlist.decode(stored, certificate: { _ in nil }, device: { $0 == 300 ? nil : udids[$0] })
        }
        #expect(encoded.stored(deviceIDs: [5, 300]) == nil, "a device without an id cannot be stored")
        // Without the profile's devices, the same plist keeps the hex identifiers as bytes.
        let unreferenced = try #require(CompactPlist.encode(original, certificateSHA1s: []))
        #expect(unreferenced.devices.isEmpty)
        #expect(try CompactPlist.decode(unreferenced.stored(deviceIDs: []) ?? [], certificate: { _ in nil }) == original)
    }

    /// Values written in format 1 (no blob length, no device section) still decode; an unknown
    /// format is an error, not a plist.
    @Test func formatOneValuesStillDecode() throws {
        let original = Array("<string>0123456789abcdef0123456789abcdef01234567</string>".utf8)
        let template: [UInt8] = [0, 8] + Array("<string>".utf8) + [3, 0] + [0, 9] + Array("</string>".utf8)
        let blobs: [UInt8] = [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB,
                              0xCD, 0xEF, 0x01, 0x23, 0x45, 0x67]
        let crc = Inflater.crc32(original)
        let formatOne = try Self.value(template: template, length: original.count, crc: crc, format: 1, blobs: blobs)
        #expect(CompactPlist.isCompact(formatOne))
        #expect(try CompactPlist.decode(formatOne) { _ in nil } == original)
        // Op 04 is not part of format 1.
        let reference = try Self.value(template: [0, 8] + Array("<string>".utf8) + [4], length: 9, format: 1)
        #expect(throws: CompactPlistError.self) { try CompactPlist.decode(reference, certificate: { _ in nil }, device: { _ in "x" }) }
        let unknown = try Self.value(template: template, length: original.count, crc: crc, format: 3, blobs: blobs)
        #expect(throws: CompactPlistError.self) { try CompactPlist.decode(unknown) { _ in nil } }
    }

    @Test func damageAndAMissingCertificateAreErrors() throws {
        let original = plist(Data(certificate).base64EncodedString(), Data(blob).base64EncodedString())
        let encoded = try #require(CompactPlist.encode(original, certificateSHA1s: [sha1]))
        #expect(throws: CompactPlistError.self) { try CompactPlist.decode(encoded.bytes) { _ in nil } }
        var other = certificate
        other[0] ^= 1
        #expect(throws: CompactPlistError.self) { try CompactPlist.decode(encoded.bytes) { _ in other } }
        var damaged = encoded.bytes
        damaged[damaged.count - 1] ^= 0xFF
        #expect(throws: CompactPlistError.self) { try CompactPlist.decode(damaged) { _ in certificate } }
        #expect(throws: CompactPlistError.self) {
            try CompactPlist.decode(Array(encoded.bytes.prefix(14))) { _ in certificate }
        }
    }

    /// The profile's DER profile is never looked up among its certificates, even when its bytes
    /// happen to be one: it stays in the blob section and comes back exactly.
    @Test func theDERProfileIsNotTakenForACertificate() throws {
        let original = plist(Data(certificate).base64EncodedString(), Data(certificate).base64EncodedString())
        let both = try #require(CompactPlist.encode(original, certificateSHA1s: [sha1]))
        let skipped = try #require(CompactPlist.encode(original, certificateSHA1s: [sha1], notCertificate: certificate))
        #expect(both.certificates.keys.contains(sha1) && skipped.certificates.isEmpty)
        #expect(skipped.bytes.count > both.bytes.count + certificate.count / 2)
        #expect(try CompactPlist.decode(skipped.bytes) { _ in nil } == original)
    }
}
