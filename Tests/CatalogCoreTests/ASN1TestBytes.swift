import CatalogTestSupport
import Foundation
@testable import CatalogCore

/// Byte-building helpers shared by the BER, CMS and X.509 tests.
enum ASN1TestBytes {
    /// `openssl cms -sign -nodetach -binary -stream -outform DER` of `opensslContent`, signed with a
    /// throwaway P-256 key and the self-signed certificate `/CN=Signer`, serial 5 (839 bytes): an
    /// indefinite-length ContentInfo whose eContent is a constructed OCTET STRING.
    static let opensslBERSignedData: [UInt8] = bytes(hex:
        "308006092a864886f70d010702a0803080020101310d300b0609608648016503040201308006092a864886f70d010701" +
        "a0802480042b3c3f786d6c2076657273696f6e3d22312e30223f3e3c706c6973743e3c646963742f3e3c2f706c697374" +
        "3e000000000000a0820169308201653082010aa003020102020105300a06082a8648ce3d0403023011310f300d060355" +
        "04030c065369676e6572301e170d3236313132393136333831355a170d3236313133303136333831355a3011310f300d" +
        "06035504030c065369676e65723059301306072a8648ce3d020106082a8648ce3d030107034200040ce2b28be888ccba" +
        "a6aa287f449baed8ffe3c1df7c80d5a9a0de3234e0095584eb5c2ae274d0261f023170ce79b3862c3ca93659f0d4ebf2" +
        "cb78a2a27290d9e7a3533051301d0603551d0e041604146de9b79d02711eb49d9a2f84ed1b9574a31014ce301f060355" +
        "1d230418301680146de9b79d02711eb49d9a2f84ed1b9574a31014ce300f0603551d130101ff040530030101ff300a06" +
        "082a8648ce3d0403020349003046022100934853055e9363fbad8f5fe03c31a6451079d425130bee9dda473145623aa4" +
        "b1022100d89ab5a0e4416fd865955c41ea2172699f6fb12683f9e7712242ce388372de08318201693082016502010130" +
        "163011310f300d06035504030c065369676e6572020105300b0609608648016503040201a081e4301806092a864886f7" +
        "0d010903310b06092a864886f70d010701301c06092a864886f70d010905310f170d3236313132393136333831355a30" +
        "2f06092a864886f70d0109043122042032f11cf8c36b0c3e5fdfc518737556f047ed896abde9cbda5e25b93d59adb661" +
        "307906092a864886f70d01090f316c306a300b060960864801650304012a300b0609608648016503040116300b060960" +
        "8648016503040102300a06082a864886f70d0307300e06082a864886f70d030202020080300d06082a864886f70d0302" +
        "020140300706052b0e030207300d06082a864886f70d0302020128300a06082a8648ce3d040302044830460221009349" +
        "1eb66fefac94c9f474bdc8df8ac3778841239cae789fd34f3d39e24238f702210090444d032c62fb11096e9d2c7e3665" +
        "35105d7ef7dccd8f22d177ee62b9f496e4000000000000")

    static let opensslContent = #"<?xml version="1.0"?><plist><dict/></plist>"#

    /// The certificate inside `opensslBERSignedData` (`openssl x509 -outform DER`): serial 05,
    /// notBefore 2026-11-29T16:38:15Z, notAfter 2026-11-30T16:38:15Z,
    /// SHA-1 13A88577FD8696742769A2032DC29A7BCB3F4582.
    static let opensslCertificate: [UInt8] = bytes(hex:
        "308201653082010aa003020102020105300a06082a8648ce3d0403023011310f300d06035504030c065369676e657230" +
        "1e170d3236313132393136333831355a170d3236313133303136333831355a3011310f300d06035504030c065369676e" +
        "65723059301306072a8648ce3d020106082a8648ce3d030107034200040ce2b28be888ccbaa6aa287f449baed8ffe3c1" +
        "df7c80d5a9a0de3234e0095584eb5c2ae274d0261f023170ce79b3862c3ca93659f0d4ebf2cb78a2a27290d9e7a35330" +
        "51301d0603551d0e041604146de9b79d02711eb49d9a2f84ed1b9574a31014ce301f0603551d230418301680146de9b7" +
        "9d02711eb49d9a2f84ed1b9574a31014ce300f0603551d130101ff040530030101ff300a06082a8648ce3d0403020349" +
        "003046022100934853055e9363fbad8f5fe03c31a6451079d425130bee9dda473145623aa4b1022100d89ab5a0e4416f" +
        "d865955c41ea2172699f6fb12683f9e7712242ce388372de08")

    static func bytes(hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var high: UInt8? = nil
        for character in hex where !character.isWhitespace {
            guard let nibble = character.hexDigitValue.map(UInt8.init) else { continue }
            if let h = high { out.append(h << 4 | nibble); high = nil } else { high = nibble }
        }
        return out
    }

    /// A definite-length DER element: `identifier`, minimal length octets, `content`.
    static func tlv(_ identifier: UInt8, _ content: [UInt8]) -> [UInt8] {
        [identifier] + length(content.count) + content
    }

    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var octets: [UInt8] = []
        var value = count
        while value > 0 { octets.insert(UInt8(value & 0xFF), at: 0); value >>= 8 }
        return [0x80 | UInt8(octets.count)] + octets
    }

    static func sequence(_ items: [UInt8]...) -> [UInt8] { tlv(0x30, items.flatMap { $0 }) }
    static func set(_ items: [UInt8]...) -> [UInt8] { tlv(0x31, items.flatMap { $0 }) }
    static func integer(_ octets: [UInt8]) -> [UInt8] { tlv(0x02, octets) }
    static func oid(_ octets: [UInt8]) -> [UInt8] { tlv(0x06, octets) }
    static func explicit(_ number: UInt8, _ items: [UInt8]...) -> [UInt8] { tlv(0xA0 | number, items.flatMap { $0 }) }

    /// The `DecodeError` of `kind` that `body` throws; `nil` if it succeeds or throws anything else.
    static func caught(_ kind: DecodeError.Kind, _ body: () throws -> Void) -> DecodeError? {
        do {
            try body()
            return nil
        } catch let error as DecodeError {
            return error.kind == kind ? error : nil
        } catch {
            return nil
        }
    }

    /// `../shared/real-corpus` beside the checkout, if present.
    static func realCorpus() -> URL? {
        TestPaths.realCorpus.map { URL(fileURLWithPath: $0) }
    }
}
