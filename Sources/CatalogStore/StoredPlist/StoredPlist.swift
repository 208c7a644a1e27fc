import CatalogCore
import Foundation

/// How `profile_plists.raw_plist` keeps a profile's plist: zlib over the plist with the base64 text
/// of each of its certificates replaced by a reference to `certificate_der`. `docs/raw_plist.py` is
/// the reference reader; docs/catalogue-file.md ("How the raw plist is stored") describes it.
///
///     00 43 50 04        magic: NUL, "CP", format 4 (3: the same without the device lines below)
///     u32, u32           the plist's length and CRC-32 (zlib's), little-endian
///     u16 n              how many references follow, each:
///       u32                where in the inflated text the certificate's base64 goes
///       20 bytes           the certificate's SHA-1 (`certificate_der.sha1` in uppercase hex)
///       u16, u8 k, k bytes the line width (0: one line) and what separates the lines
///     the rest           a zlib stream (RFC 1950): the plist without the referenced text, its preset
///                        dictionary ``dictionary`` followed by a line for each of the profile's
///                        devices (``dictionary(devices:)``)
///
/// Any other value that does not begin with NUL is the plist itself (rows written before migration
/// 0010); formats 1 and 2 are read by ``LegacyCompactPlist``.
package enum StoredPlist {
    static let magicPrefix: [UInt8] = [0x00, 0x43, 0x50]
    static let format: UInt8 = 4
    /// Format 4 without the device lines in its dictionary: still read, no longer written.
    static let formatWithoutDevices: UInt8 = 3

    /// What to store for a profile: the value, and the DER of each certificate it refers to (by
    /// uppercase hex SHA-1), which `certificate_der` must hold.
    package struct Encoded: Sendable {
        package var bytes: [UInt8]
        package var certificates: [String: [UInt8]]
    }

    // MARK: Encoding

    /// What to store for `profile`'s raw plist, its certificates by reference.
    package static func encode(_ profile: ProvisioningProfile) -> Encoded {
        encode(profile.rawPlist, certificates: zip(profile.certificateDERs, profile.certificates).map { ($0, $1.sha1) },
               devices: profile.devices)
    }

    /// What to store for `plist`, each `<data>` whose text is the base64 of one of `certificates`
    /// (DER, uppercase hex SHA-1) on lines of one width replaced by a reference. `devices` are its
    /// `ProvisionedDevices` as the catalogue keeps them (`profiles.device_ids`), which a reader
    /// needs again. Should zlib fail, the plist itself (never expected).
    package static func encode(_ plist: [UInt8], certificates: [(der: [UInt8], sha1: String)],
                               devices: [String] = []) -> Encoded {
        let candidates = certificates.compactMap { certificate -> Candidate? in
            guard !certificate.der.isEmpty, let sha1 = HexDigits.bytes(certificate.sha1.utf8), sha1.count == 20 else { return nil }
            return Candidate(digits: Array(Data(certificate.der).base64EncodedData()), der: certificate.der,
                             sha1: sha1, hex: certificate.sha1)
        }
        var text: [UInt8] = []
        text.reserveCapacity(plist.count)
        var references: [UInt8] = []
        var count = 0
        var used: [String: [UInt8]] = [:]
        var copied = 0
        var cursor = 0
        while count < Int(UInt16.max), let open = find(dataOpen, in: plist, from: cursor),
              let close = find(dataClose, in: plist, from: open + dataOpen.count) {
            cursor = close + dataClose.count
            var start = open + dataOpen.count, end = close
            while start < end && isSpace(plist[start]) { start += 1 }
            while end > start && isSpace(plist[end - 1]) { end -= 1 }
            guard start < end else { continue }
            // The first line's width and the gap after it; a one-line text has neither.
            var lineEnd = start
            while lineEnd < end && !isSpace(plist[lineEnd]) { lineEnd += 1 }
            var gapEnd = lineEnd
            while gapEnd < end && isSpace(plist[gapEnd]) { gapEnd += 1 }
            let width = lineEnd == end ? 0 : lineEnd - start
            let separator = plist[lineEnd..<gapEnd]
            guard width <= Int(UInt16.max), separator.count <= Int(UInt8.max),
                  let match = candidates.first(where: { $0.isLaidOut(as: plist[start..<end], width: width, separator: separator) })
            else { continue }
            text.append(contentsOf: plist[copied..<start])
            copied = end
            appendUInt(text.count, bytes: 4, to: &references)
            references.append(contentsOf: match.sha1)
            appendUInt(width, bytes: 2, to: &references)
            references.append(UInt8(separator.count))
            references.append(contentsOf: separator)
            used[match.hex] = match.der
            count += 1
        }
        text.append(contentsOf: plist[copied...])
        // Level 2: most of what is left is base64 no level shrinks much, and higher levels only add time.
        guard plist.count <= Int(UInt32.max),
              let deflated = try? Zlib.deflate(text, level: 2, dictionary: dictionary(devices: devices)) else {
            return Encoded(bytes: plist, certificates: [:])
        }
        var out = magicPrefix + [format]
        appendUInt(plist.count, bytes: 4, to: &out)
        appendUInt(Int(Zlib.crc32(plist)), bytes: 4, to: &out)
        appendUInt(count, bytes: 2, to: &out)
        out.append(contentsOf: references)
        out.append(contentsOf: deflated)
        return Encoded(bytes: out, certificates: used)
    }

    /// A certificate the plist may hold: its DER, base64 and SHA-1.
    private struct Candidate {
        var digits: [UInt8]
        var der: [UInt8]
        var sha1: [UInt8]
        var hex: String

        /// Whether `text` is ``digits`` on lines of `width` (0: one line) joined by `separator`.
        func isLaidOut(as text: ArraySlice<UInt8>, width: Int, separator: ArraySlice<UInt8>) -> Bool {
            let gaps = width == 0 ? 0 : (digits.count - 1) / width
            guard text.count == digits.count + gaps * separator.count else { return false }
            return StoredPlist.laidOut(digits, width: width, separator: separator).elementsEqual(text)
        }
    }

    private static let dataOpen = Array("<data>".utf8), dataClose = Array("</data>".utf8)

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Where `needle` starts in `text` at or after `from`.
    private static func find(_ needle: [UInt8], in text: [UInt8], from: Int) -> Int? {
        let last = text.count - needle.count
        guard from <= last else { return nil }
        return text.withUnsafeBufferPointer { text in
            let base = text.baseAddress!
            var index = from
            // memchr finds the candidates: most of a plist is text between them.
            while index <= last, let hit = memchr(base + index, Int32(needle[0]), last - index + 1) {
                index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if memcmp(base + index, needle, needle.count) == 0 { return index }
                index += 1
            }
            return nil
        }
    }

    private static func appendUInt(_ value: Int, bytes: Int, to out: inout [UInt8]) {
        for index in 0..<bytes { out.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }

    /// `digits` on lines of `width` (0: one line) joined by `separator`.
    static func laidOut(_ digits: [UInt8], width: Int, separator: ArraySlice<UInt8>) -> [UInt8] {
        guard width > 0 else { return digits }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count + digits.count / width * separator.count)
        for start in stride(from: 0, to: digits.count, by: width) {
            if start > 0 { out.append(contentsOf: separator) }
            out.append(contentsOf: digits[start..<min(start + width, digits.count)])
        }
        return out
    }

    // MARK: Decoding

    /// The original plist of a stored `raw_plist` value, with `certificate` (uppercase hex SHA-1 →
    /// DER), for format 4 `devices` (the profile's device identifiers in `profiles.device_ids`
    /// order) and for format 2 `device` (`devices.id` → identifier). Throws when the value is
    /// damaged or a certificate or device is missing; the length and CRC-32 of the result are checked.
    package static func decode(_ stored: [UInt8], certificate: (String) throws -> [UInt8]?,
                               devices: () throws -> [String] = { [] },
                               device: (Int64) throws -> String? = { _ in nil }) throws -> [UInt8] {
        // A plist begins with `<`, white space, a byte-order mark or `bplist`: a value that begins
        // with NUL, or has `CP` after its first byte, is one of these formats, damaged or not.
        guard stored.first == magicPrefix[0] || stored.dropFirst().starts(with: magicPrefix.dropFirst()) else { return stored }
        guard stored.starts(with: magicPrefix) else { throw StoredPlistError("the value's magic is damaged") }
        var reader = ByteReader(stored)
        let length: UInt32, crc: UInt32, format: UInt8
        var references: [(offset: Int, sha1: String, width: Int, separator: ArraySlice<UInt8>)] = []
        do {
            _ = try reader.readBytes(magicPrefix.count)
            format = try reader.readUInt8()
            switch format {
            case self.format, formatWithoutDevices: break
            case 1, 2: return try LegacyCompactPlist.decode(stored, certificate: certificate, device: device)
            default: throw StoredPlistError("unknown format \(format)")
            }
            length = try reader.readUInt32(.littleEndian)
            crc = try reader.readUInt32(.littleEndian)
            let count = try reader.readUInt16(.littleEndian)
            // A damaged length must not make this allocate more than a profile can hold.
            guard length <= ProfileDecoder.maximumSize else { throw StoredPlistError("declared length \(length) is too large") }
            for _ in 0..<count {
                let offset = try reader.readUInt32(.littleEndian), sha1 = try reader.readBytes(20)
                let width = try reader.readUInt16(.littleEndian), separator = try reader.readBytes(Int(try reader.readUInt8()))
                references.append((Int(offset), Digest.hex(sha1), Int(width), separator))
            }
        } catch is ByteReader.OutOfBounds {
            throw StoredPlistError("truncated")
        }
        let text: [UInt8]
        do {
            let preset = format == self.format ? dictionary(devices: try devices()) : dictionary
            text = try Zlib.inflate(Array(reader.rest), dictionary: preset, maxOutput: Int(length))
        } catch let error as Zlib.Error {
            throw StoredPlistError("the compressed plist does not inflate: \(error)")
        }
        var out: [UInt8] = []
        out.reserveCapacity(Int(length))
        var copied = 0
        for reference in references {
            guard reference.offset >= copied, reference.offset <= text.count else {
                throw StoredPlistError("a reference is out of order")
            }
            out.append(contentsOf: text[copied..<reference.offset])
            copied = reference.offset
            guard let der = try certificate(reference.sha1) else {
                throw StoredPlistError("certificate \(reference.sha1) is not in the catalogue")
            }
            out.append(contentsOf: laidOut(Array(Data(der).base64EncodedData()), width: reference.width,
                                           separator: reference.separator))
            guard out.count <= Int(length) else { throw StoredPlistError("longer than declared") }
        }
        out.append(contentsOf: text[copied...])
        guard out.count == Int(length), Zlib.crc32(out) == crc else {
            throw StoredPlistError("the rebuilt plist does not match its length and checksum")
        }
        return out
    }
}

/// Why a stored plist could not be rebuilt.
package struct StoredPlistError: Error, CustomStringConvertible, Sendable {
    package let description: String
    init(_ description: String) { self.description = description }
}
