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

    /// A compact value around `template`, deflated with the format's dictionary, claiming `length`.
    private static func value(template: [UInt8], length: Int) throws -> [UInt8] {
        let deflated = try #require(Zlib.Deflater().deflate(template, dictionary: CompactPlist.dictionary))
        var out = CompactPlist.magic
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: length >> shift)) }
        out += [0, 0, 0, 0]
        CompactPlist.appendVarint(deflated.count, to: &out)
        return out + deflated
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
}
