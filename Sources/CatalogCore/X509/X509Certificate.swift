import Foundation

/// The subset of an X.509 certificate (RFC 5280 §4.1) a profile's signing certificates are
/// indexed by. Nothing is verified.
///
/// ```
/// Certificate ::= SEQUENCE {
///   tbsCertificate TBSCertificate,
///   signatureAlgorithm AlgorithmIdentifier,
///   signatureValue BIT STRING }
///
/// TBSCertificate ::= SEQUENCE {
///   version [0] EXPLICIT Version DEFAULT v1,
///   serialNumber CertificateSerialNumber,        -- INTEGER
///   signature AlgorithmIdentifier,
///   issuer Name,
///   validity Validity,
///   subject Name,
///   subjectPublicKeyInfo SubjectPublicKeyInfo,
///   issuerUniqueID [1] IMPLICIT UniqueIdentifier OPTIONAL,
///   subjectUniqueID [2] IMPLICIT UniqueIdentifier OPTIONAL,
///   extensions [3] EXPLICIT Extensions OPTIONAL }
///
/// Validity ::= SEQUENCE { notBefore Time, notAfter Time }
/// Time ::= CHOICE { utcTime UTCTime, generalTime GeneralizedTime }
///
/// Name ::= SEQUENCE OF RelativeDistinguishedName           -- RDNSequence
/// RelativeDistinguishedName ::= SET OF AttributeTypeAndValue
/// AttributeTypeAndValue ::= SEQUENCE { type OBJECT IDENTIFIER, value ANY DEFINED BY type }
/// ```
///
/// Where a name holds an attribute more than once, the first occurrence is reported.
package struct X509Certificate: Sendable, Equatable {
    package let subjectCommonName: String?
    package let subjectOrganizationalUnit: String?
    package let subjectOrganization: String?
    package let issuerCommonName: String?
    /// Uppercase hex as `openssl x509 -noout -serial` prints it: the magnitude's octets, `-` before a
    /// negative number, `00` for zero.
    package let serialHex: String
    package let notBefore: Date
    package let notAfter: Date
    /// The N of each extension 1.2.840.113635.100.6.1.N Apple marks a certificate's purpose with
    /// (2 iOS development, 4 iOS distribution, 7 Mac App Store, 8 Mac installer, 12 Mac
    /// development, 13 Developer ID Application, 14 Developer ID Installer), in order.
    package let appleExtensionNumbers: [UInt8]

    /// Throws `DecodeError` of kind `.malformedCertificate`, with the byte offset in `der`.
    package init(der: [UInt8]) throws {
        let reader = try BERReader(bytes: der, errorKind: .malformedCertificate)
        let tbs = try reader.sequence(reader.root, "Certificate") { certificate in
            let tbs = try certificate.read(.sequence, "tbsCertificate")
            _ = try certificate.read(.sequence, "signatureAlgorithm")
            _ = try certificate.read(.bitString, "signatureValue")
            return tbs
        }
        guard tbs.isConstructed else { throw reader.error("tbsCertificate: expected a constructed SEQUENCE", at: tbs) }
        var fields = reader.children(of: tbs)
        if let version = fields.readOptional(.contextSpecific(0)) {
            _ = try reader.integerBytes(try reader.explicit(version, 0, "version"), "version")
        }
        let serial = try reader.integerBytes(try fields.read(.integer, "serialNumber"), "serialNumber")
        serialHex = Self.opensslHex(serial)
        _ = try fields.read(.sequence, "signature")
        let issuer = try Self.parseName(try fields.read(.sequence, "issuer"), reader)
        (notBefore, notAfter) = try Self.parseValidity(try fields.read(.sequence, "validity"), reader)
        let subject = try Self.parseName(try fields.read(.sequence, "subject"), reader)
        _ = try fields.read(.sequence, "subjectPublicKeyInfo")
        // The unique identifiers are not needed; the extensions only for Apple's purpose marks.
        _ = fields.readOptional(.contextSpecific(1))
        _ = fields.readOptional(.contextSpecific(2))
        if let extensions = fields.readOptional(.contextSpecific(3)) {
            // Only a hint for the certificate's type: odd extensions must not cost the certificate.
            appleExtensionNumbers = (try? Self.appleExtensionNumbers(try reader.explicit(extensions, 3, "extensions"), reader)) ?? []
        } else {
            appleExtensionNumbers = []
        }

        issuerCommonName = issuer[Self.commonName]
        subjectCommonName = subject[Self.commonName]
        subjectOrganizationalUnit = subject[Self.organizationalUnit]
        subjectOrganization = subject[Self.organization]
    }

    /// `Validity ::= SEQUENCE { notBefore Time, notAfter Time }`.
    static func parseValidity(_ node: BERNode, _ reader: BERReader) throws -> (notBefore: Date, notAfter: Date) {
        try reader.sequence(node, "validity") { validity in
            let notBefore = try parseTime(try validity.read("notBefore"), reader)
            let notAfter = try parseTime(try validity.read("notAfter"), reader)
            return (notBefore, notAfter)
        }
    }

    // MARK: Extensions

    /// DER content of the OID arc 1.2.840.113635.100.6.1 (Apple certificate extensions).
    static let appleExtensionArc: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x63, 0x64, 0x06, 0x01]

    /// `Extensions ::= SEQUENCE OF Extension`, `Extension ::= SEQUENCE { extnID OBJECT IDENTIFIER,
    /// critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }`: the last arc of each extnID under
    /// `appleExtensionArc`.
    static func appleExtensionNumbers(_ extensions: BERNode, _ reader: BERReader) throws -> [UInt8] {
        var numbers: [UInt8] = []
        try reader.sequence(extensions, "extensions") { list in
            while let entry = list.next() {
                let id = try reader.sequence(entry, "extension") { fields -> ArraySlice<UInt8> in
                    let id = try fields.read(.objectIdentifier, "extnID")
                    _ = fields.readOptional(.boolean)
                    _ = try fields.read(.octetString, "extnValue")
                    return reader.content(of: id)
                }
                if id.count == appleExtensionArc.count + 1, id.starts(with: appleExtensionArc), let last = id.last, last < 0x80 {
                    numbers.append(last)
                }
            }
        }
        return numbers
    }

    // MARK: Serial number

    /// What OpenSSL's `i2a_ASN1_INTEGER` prints for a minimal two's-complement INTEGER.
    static func opensslHex(_ octets: ArraySlice<UInt8>) -> String {
        guard let first = octets.first else { return "00" }
        if first & 0x80 == 0 {
            let magnitude = octets.count > 1 && first == 0 ? octets.dropFirst() : octets
            return Digest.hex(magnitude)
        }
        // Negative: print "-" and the magnitude (two's complement negated), without a leading 00.
        var magnitude = octets.map { ~$0 }
        var index = magnitude.count - 1
        while index >= 0 {
            let (sum, carry) = magnitude[index].addingReportingOverflow(1)
            magnitude[index] = sum
            if !carry { break }
            index -= 1
        }
        let trimmed = magnitude.drop { $0 == 0 }
        return "-" + Digest.hex(trimmed.isEmpty ? [0] : Array(trimmed))
    }

    // MARK: Names

    /// DER contents of the attribute type OIDs 2.5.4.3, 2.5.4.11 and 2.5.4.10.
    static let commonName: [UInt8] = [0x55, 0x04, 0x03]
    static let organizationalUnit: [UInt8] = [0x55, 0x04, 0x0B]
    static let organization: [UInt8] = [0x55, 0x04, 0x0A]

    /// The first value of each attribute type in `name`, keyed by the type's OID content octets.
    private static func parseName(_ name: BERNode, _ reader: BERReader) throws -> [[UInt8]: String] {
        var values: [[UInt8]: String] = [:]
        try reader.sequence(name, "Name") { rdns in
            while let rdn = rdns.next() {
                try reader.constructed(rdn, .set, "RelativeDistinguishedName") { attributes in
                    while let attribute = attributes.next() {
                        try reader.sequence(attribute, "AttributeTypeAndValue") { pair in
                            let type = try pair.read(.objectIdentifier, "AttributeType")
                            _ = try reader.objectIdentifier(type, "AttributeType")
                            let value = try pair.read("AttributeValue")
                            let key = Array(reader.content(of: type))
                            if values[key] == nil, let text = try decodeString(value, reader) {
                                values[key] = text
                            }
                        }
                    }
                }
            }
        }
        return values
    }

    /// A directory string's text; `nil` for a value that is not a string type.
    static func decodeString(_ node: BERNode, _ reader: BERReader) throws -> String? {
        guard node.tag.tagClass == .universal else { return nil }
        switch node.tag {
        case .utf8String:
            // Invalid UTF-8 becomes U+FFFD rather than failing the whole certificate.
            return String(decoding: try reader.stringBytes(node), as: UTF8.self)
        case .printableString, .ia5String, .visibleString, .numericString, .t61String:
            // ASCII types; T61/Teletex is read as Latin-1, as most software does. Out-of-range
            // octets in the ASCII types are read as Latin-1 too rather than rejected.
            return String(String.UnicodeScalarView(try reader.stringBytes(node).map { Unicode.Scalar($0) }))
        case .bmpString:
            let octets = try reader.stringBytes(node)
            guard octets.count % 2 == 0 else { throw reader.error("BMPString of odd length", at: node) }
            let units = stride(from: 0, to: octets.count, by: 2).map { UInt16(octets[$0]) << 8 | UInt16(octets[$0 + 1]) }
            return String(decoding: units, as: UTF16.self)
        case .universalString:
            let octets = try reader.stringBytes(node)
            guard octets.count % 4 == 0 else { throw reader.error("UniversalString length not a multiple of 4", at: node) }
            var scalars = String.UnicodeScalarView()
            for start in stride(from: 0, to: octets.count, by: 4) {
                let value = octets[start..<start + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
            }
            return String(scalars)
        default:
            return nil
        }
    }

    // MARK: Times

    /// A UTCTime (`YYMMDDhhmm[ss](Z|±hhmm)`; YY < 50 is 20YY, else 19YY, RFC 5280 §4.1.2.5.1) or
    /// GeneralizedTime (`YYYYMMDDhhmm[ss[.fff]](Z|±hhmm)`) as a UTC `Date`.
    static func parseTime(_ node: BERNode, _ reader: BERReader) throws -> Date {
        let isUTC: Bool
        switch node.tag {
        case .utcTime: isUTC = true
        case .generalizedTime: isUTC = false
        default: throw reader.error("expected UTCTime or GeneralizedTime, found \(node.tag)", at: node)
        }
        let text = try reader.stringBytes(node)
        guard let seconds = parseTimeText(text, isUTC: isUTC) else {
            let printable = String(decoding: text.prefix(40), as: UTF8.self)
            throw reader.error("invalid \(isUTC ? "UTCTime" : "GeneralizedTime") \"\(printable)\"", at: node)
        }
        return Date(timeIntervalSince1970: seconds)
    }

    /// Seconds since 1970 for the text of a UTCTime or GeneralizedTime, or `nil` if it is invalid.
    static func parseTimeText(_ text: [UInt8], isUTC: Bool) -> Double? {
        var scanner = CivilTime.Scanner(text)
        var year: Int
        if isUTC {
            guard let yy = scanner.digits(2) else { return nil }
            year = yy < 50 ? 2000 + yy : 1900 + yy
        } else {
            guard let yyyy = scanner.digits(4) else { return nil }
            year = yyyy
        }
        guard let month = scanner.digits(2), let day = scanner.digits(2), let hour = scanner.digits(2),
              let minute = scanner.digits(2) else { return nil }
        var second = 0
        if scanner.nextIsDigit {
            guard let value = scanner.digits(2) else { return nil }
            second = value
        }
        var fraction = 0.0
        if !isUTC, scanner.skip(".") || scanner.skip(",") {
            var scale = 0.1
            guard scanner.nextIsDigit else { return nil }
            while scanner.nextIsDigit, let digit = scanner.digits(1) {
                fraction += Double(digit) * scale
                scale /= 10
            }
        }
        var offset = 0
        if scanner.skip("Z") {
        } else if scanner.next == UInt8(ascii: "+") || scanner.next == UInt8(ascii: "-") {
            let sign = scanner.skip("+") ? 1 : (scanner.skip("-") ? -1 : 1)
            guard let offsetHours = scanner.digits(2), let offsetMinutes = scanner.digits(2),
                  offsetHours < 24, offsetMinutes < 60 else { return nil }
            offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard scanner.isAtEnd, CivilTime.isValid(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        let days = CivilTime.daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Double(seconds) + fraction
    }
}
