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
