import CatalogCore
import Foundation

/// Reads the raw plists stored in formats 1 and 2 (catalogues written by schemas 10 to 17), which
/// nothing writes any more. A value is `00 43 50`, the format (1 or 2), the plist's length and
/// CRC-32 (u32 LE), a varint `n` and `n` bytes of zlib stream (preset dictionary ``dictionary``),
/// then the blob section (format 1: the rest; format 2: a varint `b` and `b` bytes, then the device
/// section, varints, to the end). The inflated stream is a list of operations, each appending:
/// `00 n bytes` those bytes; `01 SHA-1 layout` the base64 of that certificate; `02 n layout` the
/// base64 of the blob section's next `n` bytes; `03 kind` a device identifier from the blob
/// section's next 20 bytes as 40 lower-case hex digits (kind 0) or 12 bytes as `8-16` upper-case
/// ones (kind 1); `04` (format 2) the `udid` of the device whose id is the device section's next
/// varint. A layout is a varint line width (0: one line) and three varint-prefixed strings: what
/// precedes the first line, what separates lines, what follows the last. Varints are LEB128.
enum LegacyCompactPlist {
    /// The plist a format-1 or format-2 value holds (the caller checked its first three bytes).
    static func decode(_ stored: [UInt8], certificate: (String) throws -> [UInt8]?,
                       device: (Int64) throws -> String?) throws -> [UInt8] {
        do {
            return try rebuild(stored, certificate: certificate, device: device)
        } catch is ByteReader.OutOfBounds {
            throw StoredPlistError("truncated")
        }
    }

    private static func rebuild(_ stored: [UInt8], certificate: (String) throws -> [UInt8]?,
                                device: (Int64) throws -> String?) throws -> [UInt8] {
        var reader = ByteReader(stored)
        _ = try reader.readBytes(3)
        let format = try reader.readUInt8()
        guard format == 1 || format == 2 else { throw StoredPlistError("unknown format \(format)") }
        let length = Int(try reader.readUInt32(.littleEndian))
        // A damaged length or layout must not make this allocate more than a profile can hold.
        guard length <= ProfileDecoder.maximumSize else { throw StoredPlistError("declared length \(length) is too large") }
        let crc = try reader.readUInt32(.littleEndian)
        let deflated = try reader.readBytes(try reader.varint())
        var blobs = format == 1 ? ByteReader(reader.rest) : ByteReader(try reader.readBytes(try reader.varint()))
        var devices = ByteReader(format == 1 ? [] : reader.rest)
        let template: [UInt8]
        do {
            template = try Zlib.inflate(Array(deflated), dictionary: dictionary, maxOutput: 64 << 20)
        } catch let error as Zlib.Error {
            throw StoredPlistError("the compressed template does not inflate: \(error)")
        }
        var ops = ByteReader(template)
        var out: [UInt8] = []
        out.reserveCapacity(length)
        func append<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws {
            guard bytes.count <= length - out.count else { throw StoredPlistError("longer than declared") }
            out.append(contentsOf: bytes)
        }
        func appendBase64(_ bytes: ArraySlice<UInt8>) throws {
            let lineLength = try ops.varint()
            let prefix = try ops.readBytes(try ops.varint()), separator = try ops.readBytes(try ops.varint())
            let suffix = try ops.readBytes(try ops.varint())
            // Checked before encoding: a damaged count must not make this allocate.
            guard (bytes.count + 2) / 3 * 4 <= length - out.count else { throw StoredPlistError("longer than declared") }
            try append(prefix)
            try append(StoredPlist.laidOut(Array(Data(bytes).base64EncodedData()), width: lineLength, separator: separator))
            try append(suffix)
        }
        while !ops.isAtEnd {
            switch try ops.readUInt8() {
            case 0:
                try append(try ops.readBytes(try ops.varint()))
            case 1:
                let sha1 = Digest.hex(try ops.readBytes(20))
                guard let der = try certificate(sha1) else { throw StoredPlistError("certificate \(sha1) is not in the catalogue") }
                try appendBase64(der[...])
            case 2:
                try appendBase64(try blobs.readBytes(try ops.varint()))
            case 3:
                let kind = try ops.readUInt8()
                guard kind <= 1 else { throw StoredPlistError("unknown identifier kind") }
                let digits = Array((kind == 0 ? "0123456789abcdef" : "0123456789ABCDEF").utf8)
                var text: [UInt8] = []
                for (index, byte) in try blobs.readBytes(kind == 0 ? 20 : 12).enumerated() {
                    if kind == 1 && index == 4 { text.append(UInt8(ascii: "-")) }
                    text += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
                }
                try append(text)
            case 4 where format == 2:
                let id = Int64(try devices.varint())
                guard let udid = try device(id) else { throw StoredPlistError("device \(id) is not in the catalogue") }
                try append(udid.utf8)
            case let op:
                throw StoredPlistError("unknown operation \(op)")
            }
        }
        guard out.count == length, Zlib.crc32(out) == crc else {
            throw StoredPlistError("the rebuilt plist does not match its length and checksum")
        }
        return out
    }

    /// zlib's preset dictionary of formats 1 and 2.
    static let dictionary: [UInt8] = Array("""
        <string>iOS</string><string>xrOS</string><string>visionOS</string><string>OSX</string>\
        <key>com.apple.developer.associated-domains</key><key>com.apple.developer.icloud-container-identifiers</key>\
        <key>com.apple.developer.icloud-services</key><key>com.apple.developer.ubiquity-kvstore-identifier</key>\
        <key>com.apple.developer.networking.wifi-info</key><key>com.apple.developer.in-app-payments</key>\
        <key>com.apple.security.application-groups</key><key>com.apple.developer.healthkit</key>\
        <key>com.apple.application-identifier</key><key>com.apple.developer.siri</key>\
        <key>com.apple.developer.game-center</key><key>com.apple.developer.default-data-protection</key>\
        <string>NSFileProtectionComplete</string><string>com.apple.token</string>\
        <key>beta-reports-active</key>\
        <key>ProvisionsAllDevices</key>\
        <key>PPQCheck</key>\
        <key>LocalProvision</key>\
        <string>development</string><string>production</string>\
        <string>iOS Team Provisioning Profile: </string><string>Mac Team Provisioning Profile: </string>\
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>AppIDName</key>
        \t<string>XC </string>
        \t<key>ApplicationIdentifierPrefix</key>
        \t<array>
        \t\t<string></string>
        \t</array>
        \t<key>CreationDate</key>
        \t<date>2025-01-01T00:00:00Z</date>
        \t<key>DER-Encoded-Profile</key>
        \t<data>
        \t</data>
        \t<key>DeveloperCertificates</key>
        \t<array>
        \t\t<data>
        \t\t</data>
        \t</array>
        \t<key>Entitlements</key>
        \t<dict>
        \t\t<key>aps-environment</key>
        \t\t<string>development</string>
        \t\t<key>application-identifier</key>
        \t\t<string></string>
        \t\t<key>com.apple.developer.team-identifier</key>
        \t\t<string></string>
        \t\t<key>get-task-allow</key>
        \t\t<true/>
        \t\t<key>keychain-access-groups</key>
        \t\t<array>
        \t\t\t<string>.*</string>
        \t\t\t<string>com.apple.token</string>
        \t\t</array>
        \t</dict>
        \t<key>ExpirationDate</key>
        \t<date>2026-01-01T00:00:00Z</date>
        \t<key>IsXcodeManaged</key>
        \t<false/>
        \t<key>Name</key>
        \t<string></string>
        \t<key>Platform</key>
        \t<array>
        \t\t<string>iOS</string>
        \t</array>
        \t<key>ProvisionedDevices</key>
        \t<array>
        \t\t<string>00008030-</string>
        \t\t<string></string>
        \t</array>
        \t<key>TeamIdentifier</key>
        \t<array>
        \t\t<string></string>
        \t</array>
        \t<key>TeamName</key>
        \t<string></string>
        \t<key>TimeToLive</key>
        \t<integer>365</integer>
        \t<key>UUID</key>
        \t<string></string>
        \t<key>Version</key>
        \t<integer>1</integer>
        </dict>
        </plist>

        """.utf8)
}

/// The LEB128 varints of the legacy layout.
private extension ByteReader {
    mutating func varint() throws -> Int {
        var value = 0
        for shift in stride(from: 0, to: 35, by: 7) {
            let byte = try readUInt8()
            value |= Int(byte & 0x7F) << shift
            if byte < 0x80 { return value }
        }
        throw StoredPlistError("length out of range")
    }
}
