import CatalogCore
import Foundation
import Testing
@testable import CatalogStore

/// Compacting with bytes the plist parser decoded already (`known`) stores exactly what decoding
/// every `<data>` element stores, and a wrong guess costs a second encoding, never a wrong value.
struct CompactPlistKnownBytesTests {
    private let certificate = Array((0..<700).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
    private let blob = Array((0..<301).map { UInt8(truncatingIfNeeded: $0 &* 91 &+ 5) })

    private func plist(_ certificate: [UInt8], _ blob: [UInt8], width: Int? = nil) -> [UInt8] {
        func text(_ bytes: [UInt8]) -> String {
            let digits = Data(bytes).base64EncodedString()
            guard let width else { return digits }
            var lines: [String] = [], index = digits.startIndex
            while index < digits.endIndex {
                let end = digits.index(index, offsetBy: width, limitedBy: digits.endIndex) ?? digits.endIndex
                lines.append("\t\t" + digits[index..<end])
                index = end
            }
            return "\n" + lines.joined(separator: "\n") + "\n\t"
        }
        return Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>DER-Encoded-Profile</key>
            \t<data>\(text(blob))</data>
            \t<key>DeveloperCertificates</key>
            \t<array>
            \t\t<data>\(text(certificate))</data>
            \t</array>
            </dict>
            </plist>

            """.utf8)
    }

    private var sha1: String { Digest.sha1Hex(certificate) }

    private func encode(_ original: [UInt8], known: [CompactPlist.Known]) throws -> CompactPlist.Encoded {
        try #require(CompactPlist.encode(original, certificateSHA1s: [sha1], notCertificate: blob, known: known))
    }

    @Test(arguments: [nil, 64, 76] as [Int?])
    func knownBytesGiveTheSameValue(width: Int?) throws {
        let original = plist(certificate, blob, width: width)
        let decodedEverywhere = try encode(original, known: [])
        let known = try encode(original, known: [.init(bytes: certificate, sha1: sha1), .init(bytes: blob, sha1: nil)])
        #expect(known.bytes == decodedEverywhere.bytes)
        #expect(known.certificates == decodedEverywhere.certificates)
        #expect(known.certificates[sha1] == certificate)
        #expect(try CompactPlist.decode(known.bytes) { $0 == sha1 ? certificate : nil } == original)
    }

    /// Bytes of the right length that agree with the text where the guess looks, and differ
    /// elsewhere: the rebuild refuses them and the plist is encoded by decoding.
    @Test func aWrongGuessIsCaughtAndEncodedAgain() throws {
        let original = plist(certificate, blob)
        var forged = certificate
        forged[1] ^= 0xFF
        forged[600] ^= 0xFF
        let range = try range(ofCertificateIn: original)
        original.withUnsafeBufferPointer { text in
            let digits = Base64Layout.measure(text, range, of: original)
            #expect(digits?.byteCount == certificate.count)
            #expect(digits?.mayEncode(certificate, in: text) == true)
            #expect(digits?.mayEncode(forged, in: text) == true, "the forgery must pass the guess to test the proof")
            #expect(digits?.mayEncode(Array(certificate.dropLast()), in: text) == false)
        }
        let known = try encode(original, known: [.init(bytes: forged, sha1: sha1), .init(bytes: blob, sha1: nil)])
        #expect(known.bytes == (try encode(original, known: [])).bytes)
        #expect(known.certificates[sha1] == certificate)
        #expect(try CompactPlist.decode(known.bytes) { $0 == sha1 ? certificate : nil } == original)
    }

    /// Where the certificate's digits are in `original`: between its `<data>` and `</data>`.
    private func range(ofCertificateIn original: [UInt8]) throws -> Range<Int> {
        let digits = Array(Data(certificate).base64EncodedString().utf8)
        let start = try #require(original.indices.first { original[$0...].starts(with: digits) })
        return start..<(start + digits.count)
    }
}
