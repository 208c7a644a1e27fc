import Foundation
import CatalogCore
import CCatalogZlib

/// How `profiles.raw_plist` keeps a profile's plist in a fraction of its size, every byte recoverable
/// (issue 15). A value that begins with ``magic`` is compact; any other value is the plist itself, as
/// catalogues written before this format hold it (both kinds live side by side in one catalogue).
///
/// Layout of a compact value (integers little-endian; `varint` is LEB128, 7 bits a byte):
///
///     00 43 50 02            magic: NUL, "CP", format 2 (format 1: 00 43 50 01)
///     u32                    length of the original plist
///     u32                    CRC-32 (zlib's) of the original plist
///     varint n, n bytes      the template: a zlib stream (RFC 1950) made with the preset dictionary
///                            ``dictionary``
///     varint b, b bytes      the blob section: raw bytes of `<data>` elements, in template order
///                            (format 1: the rest of the value, and no device section)
///     the rest               the device section: varints, each a `devices.id` (format 2)
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
///     04                     a device by reference (format 2): the `udid` of the device whose id is
///                            the next varint of the device section. Each profile links the devices it
///                            lists (`profiles.device_ids`) and devices are never deleted, so the row is
///                            there as long as the profile is.
///
/// and a `layout` says how the base64 text was laid out between `<data>` and `</data>`: varint L, the
/// length of every line but the last (0: one line), then three length-prefixed byte strings (varint
/// n, n bytes): what precedes the first line, what separates lines, what follows the last.
///
/// A `<data>` element is replaced only when its text is canonical base64 that this layout rebuilds
/// exactly; anything else stays literal. Before a value is stored, the encoder rebuilds the plist
/// from its template with the decoder's own code and compares it with the original.
package enum CompactPlist {
    /// The first three bytes of every compact value; the fourth is the format.
    package static let magicPrefix: [UInt8] = [0x00, 0x43, 0x50]
    /// The magic of the format this version writes.
    package static let magic: [UInt8] = magicPrefix + [0x02]

    /// What ``encode(_:certificateSHA1s:devices:with:)`` made: the value to store but its device
    /// section, the DER of each certificate it refers to (keyed by uppercase hex SHA-1), which must
    /// be stored with it, and the devices it refers to, in order, as positions in the device list
    /// given to the encoder (the profile's `devices`).
    package struct Encoded: Sendable {
        /// The stored value without its device section: the plist itself when it is not compact.
        package var bytes: [UInt8]
        package var certificates: [String: [UInt8]]
        package var devices: [Int] = []

        /// The value to store, given the `devices.id` of each device in the encoder's device list (in
        /// that order); nil when one of the devices it refers to has none.
        package func stored(deviceIDs: [Int64]) -> [UInt8]? {
            guard isCompact(bytes) else { return bytes }
            return deviceSection(deviceIDs).map { bytes + $0 }
        }

        /// The device section for the `devices.id` of each device in the encoder's device list (in
        /// that order); nil when one of the devices it refers to has none.
        func deviceSection(_ deviceIDs: [Int64]) -> [UInt8]? {
            var section: [UInt8] = []
            for position in devices {
                guard position < deviceIDs.count, deviceIDs[position] >= 0 else { return nil }
                appendVarint(Int(deviceIDs[position]), to: &section)
            }
            return section
        }
    }

    /// Whether a stored `raw_plist` value is compact (else it is the plist itself, which never
    /// begins with a NUL byte).
    package static func isCompact(_ stored: [UInt8]) -> Bool {
        stored.count >= 12 && stored[0] == magicPrefix[0] && stored[1] == magicPrefix[1] && stored[2] == magicPrefix[2]
    }

    // MARK: Encoding

    /// What to store for `profile`'s raw plist: its compact form, or the plist itself in the rare
    /// case the compact form would not rebuild it (then nothing is lost, only space). Each thread
    /// passes its own ``Compressor``.
    package static func compacting(_ profile: ProvisioningProfile, with compressor: Compressor = Compressor()) -> Encoded {
        // What the plist parser decoded already: each certificate's DER, and the DER profile.
        var known = zip(profile.certificateDERs, profile.certificates).map { Known(bytes: $0, sha1: $1.sha1) }
        if let der = profile.derEncodedProfile { known.append(Known(bytes: der, sha1: nil)) }
        return encode(profile.rawPlist, certificateSHA1s: Set(profile.certificates.map(\.sha1)), devices: profile.devices,
                      notCertificate: profile.derEncodedProfile, known: known, with: compressor)
            ?? Encoded(bytes: profile.rawPlist, certificates: [:])
    }

    /// The bytes of a `<data>` element that were decoded before (by the plist parser): a certificate's
    /// DER with its uppercase hex SHA-1, or other bytes (the DER profile) with none.
    package struct Known {
        var bytes: [UInt8]
        var sha1: String?

        package init(bytes: [UInt8], sha1: String?) {
            self.bytes = bytes
            self.sha1 = sha1
        }
    }

    /// What compacting needs kept between profiles (its deflaters and their check). Not
    /// thread-safe: one thread at a time uses it (`@unchecked Sendable` so that it can be handed
    /// from one thread to the next, as the ingester hands each worker of a batch its own for the
    /// whole run).
    package final class Compressor: @unchecked Sendable {
        private let fixed = FixedHuffmanDeflater(dictionary: CompactPlist.dictionary)
        private let zlib = Zlib.Deflater()
        let check = Zlib.Check()
        package init() {}

        /// `template` as a zlib stream with the preset dictionary: ``FixedHuffmanDeflater``'s, unless
        /// that is over a fifth of the input (much text the dictionary does not hold, whose literals
        /// zlib's dynamic codes spell in fewer bits: whole plists came out 22 % larger) and zlib's is
        /// smaller. The bench tree's templates deflate to 14 % of their size.
        func deflate(_ template: [UInt8]) -> [UInt8]? {
            let stream = fixed.deflate(template)
            guard stream.count * 5 > template.count, let dynamic = zlib.deflate(template, dictionary: dictionary),
                  dynamic.count < stream.count else { return stream }
            return dynamic
        }
    }

    /// Compacts `plist` (each thread with its own `compressor`). Certificates (by uppercase hex SHA-1 of their DER) listed in
    /// `certificateSHA1s` become references, and so does each `<string>` whose text is one of
    /// `devices` (the profile's device identifiers, which the writer links); a `<data>` holding
    /// `notCertificate` (the profile's DER profile) is not looked up among the certificates. Nil when
    /// the output would not decode to `plist` (then the plist is stored as it is).
    ///
    /// `known`: bytes decoded before. A `<data>` element that looks like some of them
    /// (``Base64Layout/Digits/mayEncode(_:in:)``) is taken to hold them, and is neither decoded nor
    /// SHA-1'd again (for the bench tree's profiles, a fifth of the encoder's time). The rebuild
    /// that checks the output proves the guess; when it fails, the plist is encoded again without
    /// `known`.
    package static func encode(_ plist: [UInt8], certificateSHA1s: Set<String>, devices: [String] = [],
                               notCertificate: [UInt8]? = nil, known: [Known] = [],
                               with compressor: Compressor = Compressor()) -> Encoded? {
        var guessed = false
        if let encoded = encode(plist, certificateSHA1s: certificateSHA1s, devices: devices, notCertificate: notCertificate,
                                known: known, guessed: &guessed, with: compressor) { return encoded }
        guard guessed else { return nil }
        return encode(plist, certificateSHA1s: certificateSHA1s, devices: devices, notCertificate: notCertificate,
                      known: [], guessed: &guessed, with: compressor)
    }

    /// ``encode(_:certificateSHA1s:devices:notCertificate:known:with:)`` once; `guessed` is set when
    /// an element was taken to hold bytes of `known`.
    private static func encode(_ plist: [UInt8], certificateSHA1s: Set<String>, devices: [String],
                               notCertificate: [UInt8]?, known: [Known], guessed: inout Bool,
                               with compressor: Compressor) -> Encoded? {
        var template: [UInt8] = []
        template.reserveCapacity(plist.count / 2)
        var blobs: [UInt8] = []
        var references = DeviceReferences(devices)
        var certificates: [String: [UInt8]] = [:]
        var literalStart = 0
        var cursor = 0
        let open = dataOpen, close = dataClose
        plist.withUnsafeBufferPointer { text in
            while let start = find(open, in: text, from: cursor) {
                let contentStart = start + open.count
                guard let end = find(close, in: text, from: contentStart) else { break }
                cursor = end + close.count
                guard let digits = Base64Layout.measure(text, contentStart..<end, of: plist) else { continue }
                let bytes: [UInt8]
                var sha1: [UInt8]?, hex = ""
                if let hit = known.first(where: { digits.mayEncode($0.bytes, in: text) }) {
                    guessed = true
                    bytes = hit.bytes
                    if let known = hit.sha1, certificateSHA1s.contains(known), known.utf8.count == 40 {
                        sha1 = HexDigits.bytes(known.utf8)
                        hex = known
                    }
                } else {
                    guard let decoded = digits.decode(text) else { continue }
                    bytes = decoded
                    // The DER profile is no certificate: its SHA-1 (2-4 KB a profile) is not worked out.
                    sha1 = certificateSHA1s.isEmpty || notCertificate.map({ ByteComparison.equal($0, bytes) }) == true
                        ? nil : Digest.sha1(bytes)
                    hex = sha1.map { Digest.hex($0) } ?? ""
                }
                let layout = digits.layout
                appendText(text, literalStart..<contentStart, to: &template, blobs: &blobs, devices: &references)
                if let sha1, certificateSHA1s.contains(hex) {
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
            appendText(text, literalStart..<text.count, to: &template, blobs: &blobs, devices: &references)
        }
        // The deflater is mostly this package's own code, not zlib's: its stream is inflated by
        // zlib, as every decode will, before it is trusted (about 3 µs a template).
        guard let deflated = compressor.deflate(template),
              compressor.check.inflates(deflated, to: template, dictionary: dictionary) else { return nil }
        var out = magic
        appendUInt32(UInt32(plist.count), to: &out)
        appendUInt32(Inflater.crc32(plist), to: &out)
        appendVarint(deflated.count, to: &out)
        out.append(contentsOf: deflated)
        appendVarint(blobs.count, to: &out)
        out.append(contentsOf: blobs)
        let encoded = Encoded(bytes: out, certificates: certificates, devices: references.order)
        // The proof that nothing was lost, made before anything is stored: the decoder's own
        // rebuild of the template (which the stream was just shown to inflate to) gives the plist
        // back, and every decode still checks the CRC-32. Devices are numbered by their position
        // in `devices`, where the writer's device section holds their ids.
        guard let positions = encoded.deviceSection(devices.indices.map(Int64.init)) else { return nil }
        var blobReader = ByteReader(blobs, from: 0), deviceReader = ByteReader(positions, from: 0)
        let rebuilt = try? rebuild(template, format: magic[magicPrefix.count], length: plist.count, blobs: &blobReader,
                                   devices: &deviceReader, certificate: { certificates[$0] },
                                   device: { devices.indices.contains(Int($0)) ? devices[Int($0)] : nil })
        guard let rebuilt, ByteComparison.equal(rebuilt, plist) else { return nil }
        return encoded
    }

    private static let dataOpen = Array("<data>".utf8), dataClose = Array("</data>".utf8)
    private static let stringOpen = Array("<string>".utf8), stringClose = Array("</string>".utf8)

    /// The devices a plist refers to, one entry per reference in template order. Looked up by
    /// their UTF-8 bytes in an open-addressing table: making a `String` of every `<string>` and
    /// hashing it, and hashing every identifier into a dictionary, were a fifth of the encoder.
    private struct DeviceReferences {
        /// Every identifier's UTF-8, back to back: device `i` is `utf8[starts[i]..<starts[i + 1]]`.
        private var utf8: [UInt8] = []
        private var starts: [Int] = [0]
        /// Each slot holds a device's first position in the list plus one (0: empty), at the hash
        /// of its bytes; twice as many slots as devices, a power of two.
        private var slots: [Int32]
        private let mask: Int
        /// Bit `n` is set when some identifier is `n` bytes long (`n` < 64); `longest` for the rest.
        private var shortLengths: UInt64 = 0
        private var longest = 0
        /// The position of each reference's device.
        var order: [Int] = []

        init(_ devices: [String]) {
            var size = 16
            while size < devices.count * 2 { size <<= 1 }
            slots = [Int32](repeating: 0, count: size)
            mask = size - 1
            starts.reserveCapacity(devices.count + 1)
            for (position, udid) in devices.enumerated() {
                utf8.append(contentsOf: udid.utf8)
                starts.append(utf8.count)
                let count = starts[position + 1] - starts[position]
                if count < 64 { shortLengths |= 1 << UInt64(count) } else { longest = max(longest, count) }
                let start = starts[position]
                // A repeated identifier keeps its first position.
                let slot = utf8.withUnsafeBufferPointer { self.slot(of: $0, start..<start + count) }
                if slots[slot] == 0 { slots[slot] = Int32(position + 1) }
            }
        }

        var isEmpty: Bool { starts.count == 1 }

        /// Whether `text[range]` is one of the identifiers; if so, the reference is recorded.
        mutating func refer(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
            let count = range.count
            guard count < 64 ? shortLengths & (1 << UInt64(count)) != 0 : count <= longest,
                  let position = find(text, range) else { return false }
            order.append(position)
            return true
        }

        /// The first position of the device whose identifier is `text[range]`.
        private func find(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
            let slot = slot(of: text, range)
            return slots[slot] == 0 ? nil : Int(slots[slot]) - 1
        }

        /// The slot holding the device whose identifier is `text[range]`, else the empty slot
        /// where it would go.
        private func slot(of text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
            let hash = FNV1a.hash(UnsafeBufferPointer(rebasing: text[range]))
            var slot = Int(truncatingIfNeeded: hash ^ hash >> 32) & mask
            return utf8.withUnsafeBufferPointer { stored -> Int in
                while slots[slot] != 0 {
                    let position = Int(slots[slot]) - 1
                    let start = starts[position], count = starts[position + 1] - start
                    if count == range.count,
                       count == 0 || memcmp(stored.baseAddress! + start, text.baseAddress! + range.lowerBound, count) == 0 {
                        return slot
                    }
                    slot = (slot + 1) & mask
                }
                return slot
            }
        }
    }

    /// Appends `text[range]`: the profile's devices (`<string>` of one of `devices`) as references,
    /// other device-like identifiers (`<string>` of 40 lower-case hex digits, or `8-16` upper-case
    /// ones) as their bytes in the blob section, the rest literally. A list of 100
    /// devices was most of what zlib had to work on, at twice the cost of the rest.
    private static func appendText(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                                   to out: inout [UInt8], blobs: inout [UInt8], devices: inout DeviceReferences) {
        let open = stringOpen, close = stringClose
        var literalStart = range.lowerBound
        var cursor = range.lowerBound
        while let start = find(open, in: text, from: cursor, before: range.upperBound) {
            let content = start + open.count
            cursor = content
            if !devices.isEmpty, let end = find(close, in: text, from: content, before: range.upperBound),
               devices.refer(text, content..<end) {
                appendLiteral(text, literalStart..<content, to: &out)
                out.append(4)
                literalStart = end
                cursor = end
                continue
            }
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
        guard let first = needle.first, let base = text.baseAddress, end >= needle.count else { return nil }
        var index = from
        let last = end - needle.count
        // memchr finds the candidates: a profile is mostly text between them, and a byte-at-a-time
        // loop over it was the encoder's largest cost of its own.
        while index <= last {
            guard let hit = memchr(base + index, Int32(first), last - index + 1) else { return nil }
            index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + index, needle, needle.count) == 0 { return index }
            index += 1
        }
        return nil
    }

    // MARK: Decoding

    /// The original plist of a stored `raw_plist` value: itself when it is not compact, else rebuilt
    /// with `certificate` (uppercase hex SHA-1 → DER) and `device` (`devices.id` → identifier).
    /// Throws when the value is damaged or a certificate or device is missing; the CRC-32 of the
    /// result is checked.
    package static func decode(_ stored: [UInt8], certificate: (String) throws -> [UInt8]?,
                               device: (Int64) throws -> String? = { _ in nil }) throws -> [UInt8] {
        guard isCompact(stored) else { return stored }
        let format = stored[magicPrefix.count]
        guard format == 1 || format == 2 else { throw CompactPlistError("unknown format \(format)") }
        var reader = ByteReader(stored, from: magicPrefix.count + 1)
        let length = Int(try reader.uint32())
        // A damaged length or layout must not make this allocate more than a profile can hold.
        guard length <= ProfileDecoder.maximumSize else { throw CompactPlistError("declared length \(length) is too large") }
        let crc = try reader.uint32()
        let deflatedCount = try reader.varint()
        let deflated = try reader.bytes(deflatedCount)
        var blobs: ByteReader
        var devices: ByteReader
        if format == 1 {
            blobs = ByteReader(Array(stored[reader.offset...]), from: 0)
            devices = ByteReader([], from: 0)
        } else {
            blobs = ByteReader(try reader.bytes(try reader.varint()), from: 0)
            devices = ByteReader(Array(stored[reader.offset...]), from: 0)
        }
        guard let template = Zlib.inflate(deflated, dictionary: dictionary, limit: 64 << 20) else {
            throw CompactPlistError("the compressed template does not inflate")
        }
        let out = try rebuild(template, format: format, length: length, blobs: &blobs, devices: &devices,
                              certificate: certificate, device: device)
        guard out.count == length, Inflater.crc32(out) == crc else {
            throw CompactPlistError("the rebuilt plist does not match its length and checksum")
        }
        return out
    }

    /// Runs an inflated template's operations (of `format`) on its blob and device sections: the
    /// plist, at most `length` bytes.
    private static func rebuild(_ template: [UInt8], format: UInt8, length: Int, blobs: inout ByteReader,
                                devices: inout ByteReader, certificate: (String) throws -> [UInt8]?,
                                device: (Int64) throws -> String?) throws -> [UInt8] {
        var ops = ByteReader(template, from: 0)
        var out: [UInt8] = []
        out.reserveCapacity(length)
        while !ops.atEnd {
            switch try ops.byte() {
            case 0:
                let bytes = try ops.slice(try ops.varint())
                guard bytes.count <= length - out.count else { throw CompactPlistError("longer than declared") }
                out.append(contentsOf: bytes)
            case 1:
                let hex = Digest.hex(try ops.bytes(20))
                guard let der = try certificate(hex) else {
                    throw CompactPlistError("certificate \(hex) is not in the catalogue")
                }
                try append(der[...], in: Base64Layout.read(from: &ops), to: &out, length: length)
            case 2:
                let bytes = try blobs.slice(try ops.varint())
                try append(bytes, in: Base64Layout.read(from: &ops), to: &out, length: length)
            case 3:
                guard let kind = HexString(rawValue: try ops.byte()) else { throw CompactPlistError("unknown identifier kind") }
                guard kind.textCount <= length - out.count else { throw CompactPlistError("longer than declared") }
                kind.write(try blobs.slice(kind.byteCount), to: &out)
            case 4 where format >= 2:
                let id = Int64(try devices.varint())
                guard let udid = try device(id) else { throw CompactPlistError("device \(id) is not in the catalogue") }
                guard udid.utf8.count <= length - out.count else { throw CompactPlistError("longer than declared") }
                out.append(contentsOf: udid.utf8)
            case let op:
                throw CompactPlistError("unknown operation \(op)")
            }
        }
        return out
    }

    private static func append(_ bytes: ArraySlice<UInt8>, in layout: Base64Layout, to out: inout [UInt8],
                               length: Int) throws {
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
