import CatalogCore
import CCatalogZlib

/// How `profiles.raw_plist` keeps a profile's plist in a fraction of its size, every byte recoverable
/// (issue 15). A value that begins with ``magic`` is compact; any other value is the plist itself, as
/// catalogues written before this format hold it (both kinds live side by side in one catalogue).
///
/// Layout of a compact value (integers little-endian; `varint` is LEB128, 7 bits a byte):
///
///     00 43 50 01            magic: NUL, "CP", format 1
///     u32                    length of the original plist
///     u32                    CRC-32 (zlib's) of the original plist
///     varint n, n bytes      the template: a zlib stream (RFC 1950) made with the preset dictionary
///                            ``dictionary``
///     the rest               the blob section: raw bytes of `<data>` elements, in template order
///
/// The inflated template is a sequence of operations that append to the output:
///
///     00 varint n, n bytes   these bytes as they are
///     01 20 bytes, layout    the base64 of the certificate whose SHA-1 this is: its DER is in
///                            `certificate_der` (one row per certificate, however many profiles list it)
///     02 varint n, layout    the base64 of the next n bytes of the blob section (a DER-Encoded-Profile
///                            and any other `<data>`: random-looking bytes that zlib cannot shrink)
///     03 kind                a device identifier in hex from the next bytes of the blob section:
///                            kind 0, 20 bytes as 40 lower-case digits; kind 1, 12 bytes as 8 upper-case
///                            digits, `-`, 16 upper-case digits (``HexString``)
///
/// and a `layout` says how the base64 text was laid out between `<data>` and `</data>`: varint L, the
/// length of every line but the last (0: one line), then three length-prefixed byte strings (varint
/// n, n bytes): what precedes the first line, what separates lines, what follows the last.
///
/// A `<data>` element is replaced only when its text is canonical base64 that this layout rebuilds
/// exactly; anything else stays literal. The encoder decodes its own output before it is stored.
package enum CompactPlist {
    package static let magic: [UInt8] = [0x00, 0x43, 0x50, 0x01]

    /// What ``encode(_:certificateSHA1s:)`` made: the value to store, and the DER of each
    /// certificate it refers to (keyed by uppercase hex SHA-1), which must be stored with it.
    package struct Encoded: Sendable {
        package var bytes: [UInt8]
        package var certificates: [String: [UInt8]]
    }

    /// Whether a stored `raw_plist` value is in this format (else it is the plist itself).
    package static func isCompact(_ stored: [UInt8]) -> Bool {
        stored.count >= 12 && Array(stored[0..<4]) == magic
    }

    // MARK: Encoding

    /// What to store for `profile`'s raw plist: its compact form, or the plist itself in the rare
    /// case the compact form would not rebuild it (then nothing is lost, only space). Each thread
    /// passes its own ``Compressor``.
    package static func compacting(_ profile: ProvisioningProfile, with compressor: Compressor = Compressor()) -> Encoded {
        encode(profile.rawPlist, certificateSHA1s: Set(profile.certificates.map(\.sha1)), with: compressor)
            ?? Encoded(bytes: profile.rawPlist, certificates: [:])
    }

    /// What compacting needs kept between profiles on one thread (a zlib stream); not thread-safe.
    package final class Compressor {
        let deflater = Zlib.Deflater()
        package init() {}
    }

    /// Compacts `plist` (each thread with its own `compressor`). Certificates (by uppercase hex SHA-1 of their DER) listed in
    /// `certificateSHA1s` become references; nil when the output would not decode to `plist` (then
    /// the plist is stored as it is).
    package static func encode(_ plist: [UInt8], certificateSHA1s: Set<String>,
                               with compressor: Compressor = Compressor()) -> Encoded? {
        var template: [UInt8] = []
        template.reserveCapacity(plist.count / 2)
        var blobs: [UInt8] = []
        var certificates: [String: [UInt8]] = [:]
        var literalStart = 0
        var cursor = 0
        let open = Array("<data>".utf8), close = Array("</data>".utf8)
        plist.withUnsafeBufferPointer { text in
            while let start = find(open, in: text, from: cursor) {
                let contentStart = start + open.count
                guard let end = find(close, in: text, from: contentStart) else { break }
                cursor = end + close.count
                guard let (bytes, layout) = Base64Layout.decode(text, contentStart..<end) else { continue }
                appendText(text, literalStart..<contentStart, to: &template, blobs: &blobs)
                let sha1 = Digest.sha1(bytes)
                let hex = Digest.hex(sha1)
                if certificateSHA1s.contains(hex) {
                    template.append(1)
                    template.append(contentsOf: sha1)
                    certificates[hex] = bytes
                } else {
                    template.append(2)
                    appendVarint(bytes.count, to: &template)
                    blobs.append(contentsOf: bytes)
                }
                layout.write(to: &template)
                literalStart = end
            }
            appendText(text, literalStart..<text.count, to: &template, blobs: &blobs)
        }
        guard let deflated = compressor.deflater.deflate(template, dictionary: dictionary) else { return nil }
        var out = magic
        appendUInt32(UInt32(plist.count), to: &out)
        appendUInt32(Inflater.crc32(plist), to: &out)
        appendVarint(deflated.count, to: &out)
        out.append(contentsOf: deflated)
        out.append(contentsOf: blobs)
        // The proof that nothing was lost, made before anything is stored.
        guard (try? decode(out, certificate: { certificates[$0] })) == plist else { return nil }
        return Encoded(bytes: out, certificates: certificates)
    }

    /// Appends `text[range]`: device identifiers (`<string>` of 40 lower-case hex digits, or
    /// `8-16` upper-case ones) as their bytes in the blob section, the rest literally. A list of 100
    /// devices was most of what zlib had to work on, at twice the cost of the rest.
    private static func appendText(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                                   to out: inout [UInt8], blobs: inout [UInt8]) {
        let open = Array("<string>".utf8), close = Array("</string>".utf8)
        var literalStart = range.lowerBound
        var cursor = range.lowerBound
        while let start = find(open, in: text, from: cursor, before: range.upperBound) {
            let content = start + open.count
            cursor = content
            for kind in HexString.allCases {
                let end = content + kind.textCount
                guard end + close.count <= range.upperBound,
                      text[end..<end + close.count].elementsEqual(close),
                      let bytes = kind.bytes(of: text, at: content) else { continue }
                appendLiteral(text, literalStart..<content, to: &out)
                out.append(3)
                out.append(kind.rawValue)
                blobs.append(contentsOf: bytes)
                literalStart = end
                cursor = end
                break
            }
        }
        appendLiteral(text, literalStart..<range.upperBound, to: &out)
    }

    private static func appendLiteral(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, to out: inout [UInt8]) {
        guard !range.isEmpty else { return }
        out.append(0)
        appendVarint(range.count, to: &out)
        out.append(contentsOf: text[range])
    }

    /// Where `needle` starts at or after `from`, ending at or before `end` (default: the text's end).
    private static func find(_ needle: [UInt8], in text: UnsafeBufferPointer<UInt8>, from: Int, before end: Int? = nil) -> Int? {
        let end = end ?? text.count
        guard let first = needle.first, end >= needle.count else { return nil }
        var index = from
        let last = end - needle.count
        while index <= last {
            if text[index] == first {
                var matched = 1
                while matched < needle.count && text[index + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return index }
            }
            index += 1
        }
        return nil
    }

    // MARK: Decoding

    /// The original plist of a stored `raw_plist` value: itself when it is not compact, else rebuilt
    /// with `certificate` (uppercase hex SHA-1 → DER). Throws when the value is damaged or a
    /// certificate is missing; the CRC-32 of the result is checked.
    package static func decode(_ stored: [UInt8], certificate: (String) throws -> [UInt8]?) throws -> [UInt8] {
        guard isCompact(stored) else { return stored }
        var reader = ByteReader(stored, from: magic.count)
        let length = Int(try reader.uint32())
        // A damaged length or layout must not make this allocate more than a profile can hold.
        guard length <= ProfileDecoder.maximumSize else { throw CompactPlistError("declared length \(length) is too large") }
        let crc = try reader.uint32()
        let deflatedCount = try reader.varint()
        let deflated = try reader.bytes(deflatedCount)
        var blobs = ByteReader(Array(stored[reader.offset...]), from: 0)
        guard let template = Zlib.inflate(deflated, dictionary: dictionary, limit: 64 << 20) else {
            throw CompactPlistError("the compressed template does not inflate")
        }
        var ops = ByteReader(template, from: 0)
        var out: [UInt8] = []
        out.reserveCapacity(length)
        while !ops.atEnd {
            switch try ops.byte() {
            case 0:
                let bytes = try ops.bytes(try ops.varint())
                guard bytes.count <= length - out.count else { throw CompactPlistError("longer than declared") }
                out.append(contentsOf: bytes)
            case 1:
                let hex = Digest.hex(try ops.bytes(20))
                guard let der = try certificate(hex) else {
                    throw CompactPlistError("certificate \(hex) is not in the catalogue")
                }
                try append(der, in: Base64Layout.read(from: &ops), to: &out, length: length)
            case 2:
                let bytes = try blobs.bytes(try ops.varint())
                try append(bytes, in: Base64Layout.read(from: &ops), to: &out, length: length)
            case 3:
                guard let kind = HexString(rawValue: try ops.byte()) else { throw CompactPlistError("unknown identifier kind") }
                guard kind.textCount <= length - out.count else { throw CompactPlistError("longer than declared") }
                kind.write(try blobs.bytes(kind.byteCount), to: &out)
            case let op:
                throw CompactPlistError("unknown operation \(op)")
            }
        }
        guard out.count == length, Inflater.crc32(out) == crc else {
            throw CompactPlistError("the rebuilt plist does not match its length and checksum")
        }
        return out
    }

    private static func append(_ bytes: [UInt8], in layout: Base64Layout, to out: inout [UInt8], length: Int) throws {
        guard layout.textCount(for: bytes.count) <= length - out.count else {
            throw CompactPlistError("longer than declared")
        }
        layout.write(bytes, to: &out)
    }

    // MARK: Bytes

    static func appendVarint(_ value: Int, to out: inout [UInt8]) {
        var value = UInt64(value)
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }

    private static func appendUInt32(_ value: UInt32, to out: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }
}
