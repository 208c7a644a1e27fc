import Foundation

/// A parser for binary property lists (`bplist00`) that trusts nothing in the file.
///
/// Layout: 8-byte header, objects, an offset table (one big-endian offset per object), and a 32-byte
/// trailer (6 unused bytes, sort version, offset int size, object ref size, object count, top object,
/// offset table offset).
///
/// Validation:
/// - Trailer sizes: offset int size and object ref size 1–8; the offset table lies between the header
///   and the trailer; the object count is bounded by that table's size.
/// - Every object offset lies between the header and the offset table; every length (data, string,
///   array, dict) is checked against the bytes before the offset table before anything is allocated.
/// - Object references are below the object count; a reference to an object that is being parsed
///   (on the current path) is a cycle and an error; nesting deeper than `maximumDepth` is an error.
/// - Shared objects are decoded once and reused, but each reuse counts the whole subtree it stands
///   for: the expanded tree may have at most `16 × object count + object area bytes + 1,024` nodes.
///   A well-formed file expands to at most one node per reference (≤ its size in bytes), while a
///   hostile one can't grow exponentially through shared sub-objects (a 2^128-node "diamond").
///
/// Decisions: 16-byte integers are accepted when they fit Int64 or UInt64 (values above Int64.max
/// become `.unsignedInteger`), else error. `null`, fill bytes, UIDs (NSKeyedArchiver only) and
/// non-`bplist00` object types are errors, as are non-ASCII bytes in ASCII strings and unpaired
/// surrogates in UTF-16 strings. Sets and ordered sets become arrays. Dictionary keys must be strings;
/// a duplicate key keeps its first position and the later value.
struct BinaryPropertyListParser {
    private let input: UnsafeBufferPointer<UInt8>
    private let offsetIntSize: Int
    private let objectRefSize: Int
    private let objectCount: Int
    private let offsetTableOffset: Int
    /// Decoded objects and the node count of the tree each one expands to.
    private var cache: [(value: PlistValue, nodes: Int)?]
    private var onPath: [Bool]
    private var visits = 0
    private let visitBudget: Int

    static let headerSize = 8
    static let trailerSize = 32

    private static func error(_ reason: String, at offset: Int?) -> DecodeError {
        DecodeError(.malformedPlist, reason, offset: offset)
    }

    /// Parses a whole `bplist00` file.
    static func parse(_ input: UnsafeBufferPointer<UInt8>) throws -> PlistValue {
        let count = input.count
        guard count >= headerSize + trailerSize + 1 else {
            throw error("binary property list too short", at: count)
        }
        let trailer = count - trailerSize
        let offsetIntSize = Int(input[trailer + 6])
        let objectRefSize = Int(input[trailer + 7])
        let rawObjectCount = readUInt(input, at: trailer + 8, size: 8)
        let rawTopObject = readUInt(input, at: trailer + 16, size: 8)
        let rawTableOffset = readUInt(input, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetIntSize) else {
            throw error("invalid offset size \(offsetIntSize) in trailer", at: trailer + 6)
        }
        guard (1...8).contains(objectRefSize) else {
            throw error("invalid object reference size \(objectRefSize) in trailer", at: trailer + 7)
        }
        guard rawTableOffset >= UInt64(headerSize), rawTableOffset < UInt64(trailer) else {
            throw error("offset table outside the file", at: trailer + 24)
        }
        let tableOffset = Int(rawTableOffset)
        let tableCapacity = (trailer - tableOffset) / offsetIntSize
        guard rawObjectCount >= 1, rawObjectCount <= UInt64(tableCapacity) else {
            throw error("object count \(rawObjectCount) does not fit the offset table", at: trailer + 8)
        }
        let objectCount = Int(rawObjectCount)
        guard rawTopObject < rawObjectCount else {
            throw error("top object \(rawTopObject) out of range", at: trailer + 16)
        }
        var parser = BinaryPropertyListParser(
            input: input, offsetIntSize: offsetIntSize, objectRefSize: objectRefSize,
            objectCount: objectCount, offsetTableOffset: tableOffset)
        return try parser.object(Int(rawTopObject), depth: 0)
    }

    private init(input: UnsafeBufferPointer<UInt8>, offsetIntSize: Int, objectRefSize: Int,
                 objectCount: Int, offsetTableOffset: Int) {
        self.input = input
        self.offsetIntSize = offsetIntSize
        self.objectRefSize = objectRefSize
        self.objectCount = objectCount
        self.offsetTableOffset = offsetTableOffset
        self.cache = Array(repeating: nil, count: objectCount)
        self.onPath = Array(repeating: false, count: objectCount)
        // objectCount ≤ file size, so this can't overflow for any buffer that fits in memory.
        self.visitBudget = 16 * objectCount + offsetTableOffset + 1_024
    }

    /// Big-endian unsigned integer of `size` (1–8) bytes at `offset`; the caller checks the range.
    private static func readUInt(_ input: UnsafeBufferPointer<UInt8>, at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + size) { value = value << 8 | UInt64(input[index]) }
        return value
    }

    /// Checks that `length` items of `size` bytes starting at `start` end before the offset table.
    private func checkRange(_ start: Int, count length: Int, size: Int, object offset: Int) throws {
        let (bytes, overflow) = length.multipliedReportingOverflow(by: size)
        guard !overflow, length >= 0, start <= offsetTableOffset, bytes <= offsetTableOffset - start else {
            throw Self.error("object extends past the object area", at: offset)
        }
    }

    private func objectOffset(_ reference: Int) throws -> Int {
        let entry = offsetTableOffset + reference * offsetIntSize  // reference < objectCount: in the table
        let raw = Self.readUInt(input, at: entry, size: offsetIntSize)
        guard raw >= UInt64(Self.headerSize), raw < UInt64(offsetTableOffset) else {
            throw Self.error("offset of object \(reference) out of range", at: entry)
        }
        return Int(raw)
    }

    /// Reads the object reference at `offset` (range already checked) and checks it against the count.
    private func reference(at offset: Int) throws -> Int {
        let raw = Self.readUInt(input, at: offset, size: objectRefSize)
        guard raw < UInt64(objectCount) else {
            throw Self.error("object reference \(raw) out of range", at: offset)
        }
        return Int(raw)
    }

    /// The length in a marker's low nibble, or (nibble 0xF) the integer object that follows it. Returns
    /// the length and the offset of the object's payload.
    private func length(marker: UInt8, at offset: Int) throws -> (Int, Int) {
        let nibble = Int(marker & 0x0F)
        if nibble != 0x0F { return (nibble, offset + 1) }
        let intOffset = offset + 1
        guard intOffset < offsetTableOffset else { throw Self.error("truncated length", at: offset) }
        let intMarker = input[intOffset]
        guard intMarker & 0xF0 == 0x10, intMarker & 0x0F <= 3 else {
            throw Self.error("invalid length marker", at: intOffset)
        }
        let size = 1 << Int(intMarker & 0x0F)
        try checkRange(intOffset + 1, count: size, size: 1, object: offset)
        let raw = Self.readUInt(input, at: intOffset + 1, size: size)
        guard raw <= UInt64(offsetTableOffset) else {  // no length can exceed the object area
            throw Self.error("length \(raw) exceeds the file", at: intOffset)
        }
        return (Int(raw), intOffset + 1 + size)
    }

    /// The object `reference` refers to: decoded once, then reused from the cache, each use counting
    /// the nodes it expands to against the visit budget.
    private mutating func object(_ reference: Int, depth: Int) throws -> PlistValue {
        if let cached = cache[reference] {
            visits += cached.nodes
            guard visits <= visitBudget else { throw tooManyVisits() }
            return cached.value
        }
        let visitsBefore = visits
        visits += 1
        guard visits <= visitBudget else { throw tooManyVisits() }
        let value = try decodeObject(reference, at: try objectOffset(reference), depth: depth)
        cache[reference] = (value, visits - visitsBefore)
        return value
    }

    /// Decodes the object at `offset` by the type in its marker's high nibble.
    @inline(__always)  // once per object; measured with callgrind
    private mutating func decodeObject(_ reference: Int, at offset: Int, depth: Int) throws -> PlistValue {
        let marker = input[offset]
        switch marker >> 4 {
        case 0x0: return try singleton(marker, at: offset)
        case 0x1: return try integerObject(marker, at: offset)
        case 0x2: return try realObject(marker, at: offset)
        case 0x3: return try dateObject(marker, at: offset)
        case 0x4: return .data(Array(try payloadBytes(marker, at: offset).bytes))
        case 0x5: return .string(try asciiString(marker, at: offset))
        case 0x6:
            let (units, start) = try payload(marker, at: offset, unitSize: 2)
            return .string(try utf16String(at: start, units: units))
        case 0xA, 0xB, 0xC: return .array(try array(reference, marker, at: offset, depth: depth))
        case 0xD: return .dictionary(try dictionary(reference, marker, at: offset, depth: depth))
        case 0x8: throw Self.error("UID objects (NSKeyedArchiver) are not supported", at: offset)
        default: throw unsupported(marker, at: offset)
        }
    }

    private func unsupported(_ marker: UInt8, at offset: Int) -> DecodeError {
        Self.error("unsupported object marker 0x\(String(marker, radix: 16))", at: offset)
    }

    /// `0000 1000` false, `0000 1001` true; `null` (`0000 0000`) and fill bytes are not accepted.
    @inline(__always)  // measured with callgrind
    private func singleton(_ marker: UInt8, at offset: Int) throws -> PlistValue {
        switch marker {
        case 0x08: return .bool(false)
        case 0x09: return .bool(true)
        case 0x00: throw Self.error("null objects are not supported", at: offset)
        default: throw unsupported(marker, at: offset)
        }
    }

    /// The `size` (at most 8) big-endian bytes after the marker at `offset`, checked against the
    /// object area.
    @inline(__always)  // measured with callgrind
    private func fixedWidth(at offset: Int, size: Int) throws -> UInt64 {
        try checkRange(offset + 1, count: size, size: 1, object: offset)
        return Self.readUInt(input, at: offset + 1, size: size)
    }

    /// `0001 nnnn`: a big-endian integer of 2^nnnn bytes (1, 2, 4, 8 or 16).
    @inline(__always)  // measured with callgrind
    private func integerObject(_ marker: UInt8, at offset: Int) throws -> PlistValue {
        let size = 1 << Int(marker & 0x0F)
        guard size <= 16 else { throw Self.error("invalid integer size", at: offset) }
        try checkRange(offset + 1, count: size, size: 1, object: offset)
        return try integer(at: offset + 1, size: size, object: offset)
    }

    /// `0010 0010` a 4-byte, `0010 0011` an 8-byte IEEE 754 big-endian real.
    @inline(__always)  // measured with callgrind
    private func realObject(_ marker: UInt8, at offset: Int) throws -> PlistValue {
        switch marker & 0x0F {
        case 2:
            let bits = UInt32(truncatingIfNeeded: try fixedWidth(at: offset, size: 4))
            return .real(Double(Float(bitPattern: bits)))
        case 3: return .real(Double(bitPattern: try fixedWidth(at: offset, size: 8)))
        default: throw Self.error("invalid real size", at: offset)
        }
    }

    /// `0011 0011`: an 8-byte real, seconds since 2001-01-01.
    @inline(__always)  // measured with callgrind
    private func dateObject(_ marker: UInt8, at offset: Int) throws -> PlistValue {
        guard marker == 0x33 else { throw Self.error("invalid date marker", at: offset) }
        let seconds = Double(bitPattern: try fixedWidth(at: offset, size: 8))
        // A bplist date is a raw Double; keep it to what an XML plist can write (years 1-9999),
        // so NaN, infinities and absurd magnitudes are a malformed file, not a model value.
        guard PlistDateRange.contains(secondsSinceReferenceDate: seconds) else {
            throw Self.error("date out of range (years 1-9999)", at: offset)
        }
        return .date(Date(timeIntervalSinceReferenceDate: seconds))
    }

    /// The length of the object at `offset` and where its payload starts, checked so that `count`
    /// units of `unitSize` bytes end before the offset table.
    @inline(__always)  // measured with callgrind
    private func payload(_ marker: UInt8, at offset: Int, unitSize: Int) throws -> (count: Int, start: Int) {
        let (count, start) = try length(marker: marker, at: offset)
        try checkRange(start, count: count, size: unitSize, object: offset)
        return (count, start)
    }

    /// The payload of a byte-counted object (data, ASCII string) at `offset`: where it starts and
    /// its bytes.
    @inline(__always)  // measured with callgrind
    private func payloadBytes(_ marker: UInt8, at offset: Int) throws
        -> (start: Int, bytes: UnsafeBufferPointer<UInt8>) {
        let (count, start) = try payload(marker, at: offset, unitSize: 1)
        return (start, UnsafeBufferPointer(rebasing: input[start..<(start + count)]))
    }

    /// `0101 nnnn`: ASCII bytes; a byte above 0x7F is an error.
    private func asciiString(_ marker: UInt8, at offset: Int) throws -> String {
        let (start, bytes) = try payloadBytes(marker, at: offset)
        if let bad = bytes.firstIndex(where: { $0 >= 0x80 }) {
            throw Self.error("non-ASCII byte in ASCII string", at: start + bad)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The header of an array, set or dictionary at `offset`: its count and where its references
    /// start (`referencesPerItem` per item), after the depth check.
    private func collection(_ marker: UInt8, at offset: Int, referencesPerItem: Int,
                            depth: Int) throws -> (count: Int, start: Int) {
        let header = try payload(marker, at: offset, unitSize: referencesPerItem * objectRefSize)
        guard depth < PropertyListReader.maximumDepth else {
            throw Self.error("nesting deeper than \(PropertyListReader.maximumDepth)", at: offset)
        }
        return header
    }

    /// `1010 nnnn` array, `1011 nnnn` ordered set, `1100 nnnn` set: `count` object references.
    private mutating func array(_ reference: Int, _ marker: UInt8, at offset: Int, depth: Int) throws -> [PlistValue] {
        let (count, start) = try collection(marker, at: offset, referencesPerItem: 1, depth: depth)
        onPath[reference] = true
        var array: [PlistValue] = []
        array.reserveCapacity(count)
        for index in 0..<count {
            let child = try self.reference(at: start + index * objectRefSize)
            guard !onPath[child] else { throw Self.error("cyclic object reference", at: offset) }
            array.append(try object(child, depth: depth + 1))
        }
        onPath[reference] = false
        return array
    }

    /// `1101 nnnn`: `count` key references, then `count` value references; keys must be strings.
    private mutating func dictionary(_ reference: Int, _ marker: UInt8, at offset: Int,
                                     depth: Int) throws -> PlistDictionary {
        let (count, start) = try collection(marker, at: offset, referencesPerItem: 2, depth: depth)
        onPath[reference] = true
        var dictionary = PlistDictionary()
        let valuesStart = start + count * objectRefSize
        for index in 0..<count {
            let keyReference = try self.reference(at: start + index * objectRefSize)
            let valueReference = try self.reference(at: valuesStart + index * objectRefSize)
            guard !onPath[keyReference], !onPath[valueReference] else {
                throw Self.error("cyclic object reference", at: offset)
            }
            guard case .string(let key) = try object(keyReference, depth: depth + 1) else {
                throw Self.error("dictionary key is not a string", at: offset)
            }
            dictionary[key] = try object(valueReference, depth: depth + 1)
        }
        onPath[reference] = false
        return dictionary
    }

    private func tooManyVisits() -> DecodeError {
        Self.error("shared objects expand to more than \(visitBudget) nodes", at: nil)
    }

    private func integer(at start: Int, size: Int, object offset: Int) throws -> PlistValue {
        switch size {
        case 1, 2, 4:
            return .integer(Int64(Self.readUInt(input, at: start, size: size)))
        case 8:
            return .integer(Int64(bitPattern: Self.readUInt(input, at: start, size: 8)))
        case 16:
            let high = Self.readUInt(input, at: start, size: 8)
            let low = Self.readUInt(input, at: start + 8, size: 8)
            if high == 0 {
                return low <= UInt64(Int64.max) ? .integer(Int64(low)) : .unsignedInteger(low)
            }
            if high == UInt64.max, low > UInt64(Int64.max) {
                return .integer(Int64(bitPattern: low))
            }
            throw Self.error("128-bit integer out of range", at: offset)
        default:
            throw Self.error("invalid integer size \(size)", at: offset)
        }
    }

    private func utf16String(at start: Int, units: Int) throws -> String {
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < units {
            let unit = UInt16(truncatingIfNeeded: Self.readUInt(input, at: start + 2 * index, size: 2))
            let scalar: Unicode.Scalar?
            if (0xD800...0xDBFF).contains(unit) {
                guard index + 1 < units else { throw Self.error("unpaired surrogate in string", at: start + 2 * index) }
                let next = UInt16(truncatingIfNeeded: Self.readUInt(input, at: start + 2 * index + 2, size: 2))
                guard (0xDC00...0xDFFF).contains(next) else {
                    throw Self.error("unpaired surrogate in string", at: start + 2 * index)
                }
                let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(next) - 0xDC00)
                scalar = Unicode.Scalar(value)
                index += 2
            } else {
                scalar = Unicode.Scalar(unit)
                index += 1
            }
            guard let scalar else { throw Self.error("unpaired surrogate in string", at: start + 2 * index) }
            scalars.append(scalar)
        }
        return String(scalars)
    }
}

/// The dates a plist may hold: 0001-01-01 to 9999-12-31, as XML plists can write them.
enum PlistDateRange {
    /// 0001-01-01T00:00:00Z and 10000-01-01T00:00:00Z, in seconds since 2001-01-01 (the bplist epoch).
    static let lower = -63_113_904_000.0
    static let upper = 252_423_993_600.0

    static func contains(secondsSinceReferenceDate seconds: Double) -> Bool {
        seconds.isFinite && seconds >= lower && seconds < upper
    }
}
