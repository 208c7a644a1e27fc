import Foundation

/// A byte-level parser for Apple's XML property-list dialect (no XMLParser / libxml2).
///
/// Accepts: an optional `<?xml …?>` declaration, `<!DOCTYPE …>`, comments and processing instructions
/// between elements, a `<plist …>` root or a bare root value, the elements `dict key string array data
/// date integer real true false` (and their empty forms such as `<string/>`), the five predefined
/// entities, decimal and hex character references, CDATA sections and comments inside text.
///
/// Decisions:
/// - Text must be valid UTF-8. Invalid bytes throw with their offset rather than being repaired, since
///   silent repair would hide corruption. The `encoding` in the XML declaration is not consulted.
/// - Text is taken as written: line ends are not normalized (CRLF stays CRLF, as in CoreFoundation) and
///   literal control characters are kept.
/// - Duplicate dictionary keys: the later value wins, in the first key's position.
/// - Character references to U+0000, surrogates, values above U+10FFFF, and C0 controls other than
///   tab, LF and CR are errors (XML 1.0 forbids them).
/// - `<integer>`: decimal with optional sign or `0x` hex; above Int64.max gives `.unsignedInteger`
///   when it fits UInt64, otherwise an error. Surrounding whitespace is ignored in integer, real,
///   date and data; in string and key it is kept.
/// - `<data>`: base64 with whitespace anywhere; padding may be omitted; other characters are errors.
/// - `<date>`: `YYYY[-MM[-DD[THH[:MM[:SS]]]]]Z`, UTC.
/// - Nesting deeper than `PropertyListReader.maximumDepth` throws (no unbounded recursion).
/// - Anything but whitespace, comments and processing instructions after the root is an error.
struct XMLPropertyListParser {
    private let input: UnsafeBufferPointer<UInt8>
    private var position: Int
    /// Reused storage for text that needs entity decoding or spans CDATA / comments.
    private var scratch: [UInt8] = []

    private init(input: UnsafeBufferPointer<UInt8>, position: Int) {
        self.input = input
        self.position = position
    }

    /// Parses the XML property list in `input`, starting at `start` (after any BOM). Offsets in
    /// errors are indices into `input`.
    static func parse(_ input: UnsafeBufferPointer<UInt8>, start: Int = 0) throws -> PlistValue {
        var parser = XMLPropertyListParser(input: input, position: start)
        return try parser.parseDocument()
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    // MARK: - Document structure

    private enum Element {
        case plist, dict, key, string, array, data, date, integer, real, `true`, `false`, unknown

        var name: String {
            switch self {
            case .plist: return "plist"
            case .dict: return "dict"
            case .key: return "key"
            case .string: return "string"
            case .array: return "array"
            case .data: return "data"
            case .date: return "date"
            case .integer: return "integer"
            case .real: return "real"
            case .true: return "true"
            case .false: return "false"
            case .unknown: return "?"
            }
        }
    }

    private struct StartTag {
        var element: Element
        var nameRange: Range<Int>
        var isEmpty: Bool
        var offset: Int
    }

    private func error(_ reason: String, at offset: Int) -> DecodeError {
        Self.error(reason, at: offset)
    }

    private static func error(_ reason: String, at offset: Int) -> DecodeError {
        DecodeError(.malformedPlist, reason, offset: offset)
    }

    private mutating func parseDocument() throws -> PlistValue {
        try skipMisc(allowDeclaration: true)
        guard position < input.count else { throw error("no root element", at: position) }
        guard input[position] == UInt8(ascii: "<") else {
            throw error("expected an element", at: position)
        }
        let value: PlistValue
        let tag = try readStartTag()
        if tag.element == .plist {
            if tag.isEmpty { throw error("empty <plist> element", at: tag.offset) }
            try skipMisc(allowDeclaration: false)
            guard position < input.count else { throw error("unterminated <plist>", at: position) }
            if isAtEndTag() { throw error("empty <plist> element", at: position) }
            let inner = try readStartTag()
            value = try parseValue(inner, depth: 0)
            try skipMisc(allowDeclaration: false)
            guard position < input.count else { throw error("missing </plist>", at: position) }
            guard isAtEndTag() else { throw error("more than one value in <plist>", at: position) }
            try readEndTag(.plist, nameRange: tag.nameRange)
        } else {
            value = try parseValue(tag, depth: 0)
        }
        try skipMisc(allowDeclaration: false)
        if position < input.count {
            throw error("unexpected content after the root element", at: position)
        }
        return value
    }

    /// Skips whitespace, comments, processing instructions and (in the prolog) `<!DOCTYPE …>`.
    private mutating func skipMisc(allowDeclaration: Bool) throws {
        let count = input.count
        while position < count {
            let byte = input[position]
            if Self.isWhitespace(byte) {
                position += 1
            } else if byte == UInt8(ascii: "<"), position + 1 < count {
                let next = input[position + 1]
                if next == UInt8(ascii: "?") {
                    try skipProcessingInstruction()
                } else if next == UInt8(ascii: "!") {
                    if hasPrefix("<!--", at: position) {
                        try skipComment()
                    } else if allowDeclaration, hasPrefix("<!DOCTYPE", at: position) {
                        try skipDoctype()
                    } else {
                        throw error("unexpected markup", at: position)
                    }
                } else {
                    return
                }
            } else {
                return
            }
        }
    }

    private func hasPrefix(_ literal: StaticString, at offset: Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard offset >= 0, input.count - offset >= length else { return false }
        let pointer = literal.utf8Start
        for index in 0..<length where input[offset + index] != pointer[index] { return false }
        return true
    }

    /// The index of the first occurrence of `literal` at or after `from`, or nil.
    private func find(_ literal: StaticString, from: Int) -> Int? {
        let length = literal.utf8CodeUnitCount
        let first = literal.utf8Start[0]
        var index = from
        let last = input.count - length
        while index <= last {
            if input[index] == first, hasPrefix(literal, at: index) { return index }
            index += 1
        }
        return nil
    }

    private mutating func skipComment() throws {
        guard let end = find("-->", from: position + 4) else {
            throw error("unterminated comment", at: position)
        }
        position = end + 3
    }

    private mutating func skipProcessingInstruction() throws {
        guard let end = find("?>", from: position + 2) else {
            throw error("unterminated processing instruction", at: position)
        }
        position = end + 2
    }

    private mutating func skipDoctype() throws {
        let start = position
        var index = position + 9
        var bracketDepth = 0
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                index += 1
                while index < input.count, input[index] != byte { index += 1 }
            } else if byte == UInt8(ascii: "[") {
                bracketDepth += 1
            } else if byte == UInt8(ascii: "]") {
                bracketDepth -= 1
            } else if byte == UInt8(ascii: ">"), bracketDepth <= 0 {
                position = index + 1
                return
            }
            index += 1
        }
        throw error("unterminated <!DOCTYPE>", at: start)
    }

    private func isAtEndTag() -> Bool {
        position + 1 < input.count && input[position] == UInt8(ascii: "<") && input[position + 1] == UInt8(ascii: "/")
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "."),
             UInt8(ascii: "-"), 0x80...0xFF:
            return true
        default:
            return false
        }
    }

    private func element(named range: Range<Int>) -> Element {
        func equals(_ literal: StaticString) -> Bool {
            literal.utf8CodeUnitCount == range.count && hasPrefix(literal, at: range.lowerBound)
        }
        guard let first = range.isEmpty ? nil : input[range.lowerBound] else { return .unknown }
        switch first {
        case UInt8(ascii: "s"): return equals("string") ? .string : .unknown
        case UInt8(ascii: "k"): return equals("key") ? .key : .unknown
        case UInt8(ascii: "d"):
            if equals("dict") { return .dict }
            if equals("data") { return .data }
            if equals("date") { return .date }
            return .unknown
        case UInt8(ascii: "a"): return equals("array") ? .array : .unknown
        case UInt8(ascii: "i"): return equals("integer") ? .integer : .unknown
        case UInt8(ascii: "r"): return equals("real") ? .real : .unknown
        case UInt8(ascii: "t"): return equals("true") ? .true : .unknown
        case UInt8(ascii: "f"): return equals("false") ? .false : .unknown
        case UInt8(ascii: "p"): return equals("plist") ? .plist : .unknown
        default: return .unknown
        }
    }

    /// Reads `<name attr="…" …>` or `<name …/>` at `position`.
    private mutating func readStartTag() throws -> StartTag {
        let offset = position
        guard position < input.count, input[position] == UInt8(ascii: "<") else {
            throw error("expected an element", at: position)
        }
        if isAtEndTag() { throw error("unexpected end tag", at: position) }
        var index = position + 1
        let nameStart = index
        while index < input.count, Self.isNameByte(input[index]) { index += 1 }
        let nameRange = nameStart..<index
        if nameRange.isEmpty { throw error("malformed start tag", at: offset) }
        var isEmpty = false
        var lastSignificant: UInt8 = 0
        while true {
            guard index < input.count else { throw error("unterminated start tag", at: offset) }
            let byte = input[index]
            if byte == UInt8(ascii: ">") {
                isEmpty = lastSignificant == UInt8(ascii: "/")
                index += 1
                break
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                index += 1
                while index < input.count, input[index] != byte {
                    if input[index] == UInt8(ascii: "<") { throw error("'<' in attribute value", at: index) }
                    index += 1
                }
                guard index < input.count else { throw error("unterminated attribute value", at: offset) }
                lastSignificant = byte
            } else if byte == UInt8(ascii: "<") {
                throw error("unterminated start tag", at: offset)
            } else if !Self.isWhitespace(byte) {
                lastSignificant = byte
            }
            index += 1
        }
        position = index
        let element = element(named: nameRange)
        if element == .unknown {
            let name = String(decoding: UnsafeBufferPointer(rebasing: input[nameRange]), as: UTF8.self)
            throw error("unknown element <\(name)>", at: offset)
        }
        return StartTag(element: element, nameRange: nameRange, isEmpty: isEmpty, offset: offset)
    }

    /// Reads `</name>` (whitespace allowed before `>`) and checks it closes `element`.
    private mutating func readEndTag(_ element: Element, nameRange: Range<Int>) throws {
        let offset = position
        guard isAtEndTag() else { throw error("expected </\(element.name)>", at: offset) }
        var index = position + 2
        let nameStart = index
        while index < input.count, Self.isNameByte(input[index]) { index += 1 }
        var matches = index - nameStart == nameRange.count
        if matches {
            for offset in 0..<nameRange.count where input[nameStart + offset] != input[nameRange.lowerBound + offset] {
                matches = false
                break
            }
        }
        guard matches else {
            throw error("mismatched end tag: expected </\(element.name)>", at: offset)
        }
        while index < input.count, Self.isWhitespace(input[index]) { index += 1 }
        guard index < input.count, input[index] == UInt8(ascii: ">") else {
            throw error("malformed end tag", at: offset)
        }
        position = index + 1
    }

    // MARK: - Values

    /// The value whose start tag `tag` has just been read, up to and including its end tag.
    private mutating func parseValue(_ tag: StartTag, depth: Int) throws -> PlistValue {
        switch tag.element {
        case .dict: return .dictionary(try parseDictionary(tag, depth: depth))
        case .array: return .array(try parseArray(tag, depth: depth))
        case .string: return .string(tag.isEmpty ? "" : try readString(tag))
        case .true, .false: return .bool(try parseBoolean(tag))
        case .integer: return try parseScalar(tag) { content, offset in try Self.integer(content, offset: offset) }
        case .real: return try parseScalar(tag) { content, offset in try Self.real(content, offset: offset) }
        case .date: return try parseScalar(tag) { content, offset in try Self.date(content, offset: offset) }
        case .data:
            if tag.isEmpty { return .data([]) }
            return try readText(tag) { content, offset in .data(try Self.base64(content, offset: offset)) }
        case .key: throw error("<key> outside a <dict>", at: tag.offset)
        case .plist: throw error("nested <plist>", at: tag.offset)
        case .unknown: throw error("unknown element", at: tag.offset)
        }
    }

    /// `<dict>`: `<key>` and value pairs; a later duplicate key replaces the value in place.
    private mutating func parseDictionary(_ tag: StartTag, depth: Int) throws -> PlistDictionary {
        try checkDepth(tag, depth)
        var dictionary = PlistDictionary()
        if tag.isEmpty { return dictionary }
        while try !isAtContainerEnd(tag) {
            let keyTag = try readStartTag()
            guard keyTag.element == .key else {
                throw error("expected <key> in <dict>, found <\(keyTag.element.name)>", at: keyTag.offset)
            }
            let key = keyTag.isEmpty ? "" : try readString(keyTag, asKey: true)
            if try isAtContainerEnd(tag) { throw error("<key> without a value", at: keyTag.offset) }
            let valueTag = try readStartTag()
            if valueTag.element == .key { throw error("<key> without a value", at: keyTag.offset) }
            dictionary[key] = try parseValue(valueTag, depth: depth + 1)
        }
        try readEndTag(.dict, nameRange: tag.nameRange)
        return dictionary
    }

    /// `<array>`: values in order.
    private mutating func parseArray(_ tag: StartTag, depth: Int) throws -> [PlistValue] {
        try checkDepth(tag, depth)
        var array: [PlistValue] = []
        if tag.isEmpty { return array }
        // A profile's device list holds tens to a hundred values: room for 16 at once rather
        // than growing from one (a reallocation per doubling).
        array.reserveCapacity(16)
        while try !isAtContainerEnd(tag) {
            array.append(try parseValue(try readStartTag(), depth: depth + 1))
        }
        try readEndTag(.array, nameRange: tag.nameRange)
        return array
    }

    private func checkDepth(_ tag: StartTag, _ depth: Int) throws {
        guard depth < PropertyListReader.maximumDepth else {
            throw error("nesting deeper than \(PropertyListReader.maximumDepth)", at: tag.offset)
        }
    }

    /// Skips what may stand between the children of `container` (a `<dict>` or `<array>`); true when
    /// its end tag is next, false when a child's start tag is. Text there is an error.
    @inline(__always)  // hot: once per child; measured with callgrind
    private mutating func isAtContainerEnd(_ container: StartTag) throws -> Bool {
        try skipMisc(allowDeclaration: false)
        guard position < input.count else {
            throw error("unterminated <\(container.element.name)>", at: container.offset)
        }
        if isAtEndTag() { return true }
        guard input[position] == UInt8(ascii: "<") else {
            throw error("text in <\(container.element.name)>", at: position)
        }
        return false
    }

    /// `<true/>`, `<false/>`, or either with only whitespace inside.
    private mutating func parseBoolean(_ tag: StartTag) throws -> Bool {
        if !tag.isEmpty {
            try readText(tag) { content, offset in
                guard content.allSatisfy(Self.isWhitespace) else {
                    throw Self.error("<\(tag.element.name)> must be empty", at: offset)
                }
            }
        }
        return tag.element == .true
    }

    /// `<integer>`, `<real>`, `<date>`: text that `parse` turns into a value; the empty form is an error.
    private mutating func parseScalar(
        _ tag: StartTag, _ parse: (UnsafeBufferPointer<UInt8>, Int) throws -> PlistValue
    ) throws -> PlistValue {
        if tag.isEmpty { throw error("empty <\(tag.element.name)>", at: tag.offset) }
        return try readText(tag, parse)
    }

    /// The text of `tag`. A `<key>`'s (`asKey`) is one of ``PlistKeyLiterals`` when it is one: no
    /// allocation, and no validation needed.
    private mutating func readString(_ tag: StartTag, asKey: Bool = false) throws -> String {
        try readText(tag) { content, offset in
            if asKey, let literal = PlistKeyLiterals.literal(content) { return literal }
            if let bad = PlistSupport.firstInvalidUTF8(content) {
                throw Self.error("invalid UTF-8 in <\(tag.element.name)>", at: offset + bad)
            }
            return String(decoding: content, as: UTF8.self)
        }
    }

    /// Reads the character data of `tag` up to its end tag, decoding entities and CDATA, and hands it
    /// to `body` with the offset of its first byte (the exact offset of a byte only when the content
    /// needed no decoding).
    private mutating func readText<T>(
        _ tag: StartTag, _ body: (UnsafeBufferPointer<UInt8>, Int) throws -> T
    ) throws -> T {
        let count = input.count
        let contentStart = position
        var index = position
        var decoding = false
        while true {
            index = Self.nextMarkup(in: input, from: index)
            guard index < count else { throw error("unterminated <\(tag.element.name)>", at: tag.offset) }
            if !decoding, input[index] == UInt8(ascii: "<"), index + 1 < count, input[index + 1] == UInt8(ascii: "/") {
                position = index
                try readEndTag(tag.element, nameRange: tag.nameRange)
                return try body(UnsafeBufferPointer(rebasing: input[contentStart..<index]), contentStart)
            }
            if !decoding {
                decoding = true
                scratch.removeAll(keepingCapacity: true)
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[contentStart..<index]))
            } else {
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[position..<index]))
            }
            if input[index] == UInt8(ascii: "&") {
                index = try decodeReference(at: index)
            } else if hasPrefix("<![CDATA[", at: index) {
                guard let end = find("]]>", from: index + 9) else {
                    throw error("unterminated CDATA section", at: index)
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[(index + 9)..<end]))
                index = end + 3
            } else if hasPrefix("<!--", at: index) {
                position = index
                try skipComment()
                index = position
            } else if index + 1 < count, input[index + 1] == UInt8(ascii: "/") {
                position = index
                try readEndTag(tag.element, nameRange: tag.nameRange)
                return try scratch.withUnsafeBufferPointer { try body($0, contentStart) }
            } else {
                throw error("unexpected element in <\(tag.element.name)>", at: index)
            }
            position = index
        }
    }

    /// The index of the first `<` or `&` at or after `start`, else the input's end. memchr finds
    /// each: text runs long in a profile (the base64 of its certificates and DER profile), and a
    /// loop testing each byte for both was a tenth of parsing one.
    private static func nextMarkup(in input: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard start < input.count, let base = input.baseAddress else { return input.count }
        let tag = memchr(base + start, Int32(UInt8(ascii: "<")), input.count - start)
        let end = tag.map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? input.count
        guard let reference = memchr(base + start, Int32(UInt8(ascii: "&")), end - start) else { return end }
        return base.distance(to: reference.assumingMemoryBound(to: UInt8.self))
    }

    /// Decodes the entity or character reference at `start` (an `&`) into `scratch`; returns the index
    /// after its `;`.
    private mutating func decodeReference(at start: Int) throws -> Int {
        var end = start + 1
        while end < input.count, end - start <= 12, input[end] != UInt8(ascii: ";") { end += 1 }
        guard end < input.count, input[end] == UInt8(ascii: ";") else {
            throw error("unterminated entity reference", at: start)
        }
        let nameStart = start + 1
        if hasPrefix("&amp;", at: start) {
            scratch.append(UInt8(ascii: "&"))
        } else if hasPrefix("&lt;", at: start) {
            scratch.append(UInt8(ascii: "<"))
        } else if hasPrefix("&gt;", at: start) {
            scratch.append(UInt8(ascii: ">"))
        } else if hasPrefix("&quot;", at: start) {
            scratch.append(UInt8(ascii: "\""))
        } else if hasPrefix("&apos;", at: start) {
            scratch.append(UInt8(ascii: "'"))
        } else if input[nameStart] == UInt8(ascii: "#") {
            var index = nameStart + 1
            var radix: UInt32 = 10
            if index < end, input[index] == UInt8(ascii: "x") {
                radix = 16
                index += 1
            }
            guard index < end else { throw error("empty character reference", at: start) }
            var value: UInt32 = 0
            while index < end {
                let byte = input[index]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw error("invalid character reference", at: start)
                }
                value = value * radix + digit  // at most 10 digits of radix 16 fit below: checked next
                guard value <= 0x10FFFF else { throw error("character reference out of range", at: start) }
                index += 1
            }
            let forbiddenControl = value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D
            guard !forbiddenControl, !(0xD800...0xDFFF).contains(value), value != 0xFFFE, value != 0xFFFF,
                  let scalar = Unicode.Scalar(value) else {
                throw error("character reference to an invalid code point", at: start)
            }
            UTF8.encode(scalar) { scratch.append($0) }
        } else {
            throw error("unknown entity", at: start)
        }
        return end + 1
    }

    // MARK: - Scalars

    private static func trimmed(_ content: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var lower = 0
        var upper = content.count
        while lower < upper, isWhitespace(content[lower]) { lower += 1 }
        while upper > lower, isWhitespace(content[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    private static func integer(_ content: UnsafeBufferPointer<UInt8>, offset: Int) throws -> PlistValue {
        let range = trimmed(content)
        var index = range.lowerBound
        guard index < range.upperBound else { throw error("empty <integer>", at: offset) }
        var negative = false
        if content[index] == UInt8(ascii: "-") || content[index] == UInt8(ascii: "+") {
            negative = content[index] == UInt8(ascii: "-")
            index += 1
        }
        var radix: UInt64 = 10
        if range.upperBound - index >= 2, content[index] == UInt8(ascii: "0"),
           content[index + 1] == UInt8(ascii: "x") || content[index + 1] == UInt8(ascii: "X") {
            radix = 16
            index += 2
        }
        guard index < range.upperBound else { throw error("invalid <integer>", at: offset) }
        var magnitude: UInt64 = 0
        while index < range.upperBound {
            let byte = content[index]
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt64(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid <integer>", at: offset + index)
            }
            let (product, overflow1) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, overflow2) = product.addingReportingOverflow(digit)
            if overflow1 || overflow2 { throw error("<integer> out of range", at: offset) }
            magnitude = sum
            index += 1
        }
        if negative {
            if magnitude <= UInt64(Int64.max) { return .integer(-Int64(magnitude)) }
            if magnitude == UInt64(Int64.max) + 1 { return .integer(Int64.min) }
            throw error("<integer> out of range", at: offset)
        }
        if magnitude <= UInt64(Int64.max) { return .integer(Int64(magnitude)) }
        return .unsignedInteger(magnitude)
    }

    private static func real(_ content: UnsafeBufferPointer<UInt8>, offset: Int) throws -> PlistValue {
        let range = trimmed(content)
        guard !range.isEmpty, range.count <= 512,
              content[range].allSatisfy({ $0 < 0x80 }) else {
            throw error("invalid <real>", at: offset)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: content[range]), as: UTF8.self)
        if let value = Double(text) { return .real(value) }
        switch text.lowercased() {
        case "nan", "+nan", "-nan": return .real(.nan)
        case "inf", "+inf", "infinity", "+infinity": return .real(.infinity)
        case "-inf", "-infinity": return .real(-.infinity)
        default: throw error("invalid <real>", at: offset)
        }
    }

    private static func date(_ content: UnsafeBufferPointer<UInt8>, offset: Int) throws -> PlistValue {
        let invalid = error("invalid <date> (expected YYYY-MM-DDTHH:MM:SSZ)", at: offset)
        var scanner = CivilTime.Scanner(content[trimmed(content)])
        func number(_ digits: Int) throws -> Int {
            guard let value = scanner.digits(digits) else { throw invalid }
            return value
        }
        let year = try number(4)
        var month = 1, day = 1, hour = 0, minute = 0, second = 0
        if scanner.skip("-") {
            month = try number(2)
            if scanner.skip("-") {
                day = try number(2)
                if scanner.skip("T") {
                    hour = try number(2)
                    if scanner.skip(":") {
                        minute = try number(2)
                        if scanner.skip(":") { second = try number(2) }
                    }
                }
            }
        }
        guard scanner.skip("Z"), scanner.isAtEnd,
              CivilTime.isValid(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { throw invalid }
        let seconds = CivilTime.unixSeconds(year: year, month: month, day: day,
                                               hour: hour, minute: minute, second: second)
        return .date(Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// Base64 digit values; `skip` marks XML whitespace, `pad` marks `=`, `invalid` everything else.
    private static let base64Values: [UInt8] = {
        var table = [UInt8](repeating: base64Invalid, count: 256)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        for byte in [0x20, 0x09, 0x0A, 0x0D] { table[byte] = base64Skip }
        table[Int(UInt8(ascii: "="))] = base64Pad
        return table
    }()
    private static let base64Invalid: UInt8 = 0xFF
    private static let base64Skip: UInt8 = 0xFE
    private static let base64Pad: UInt8 = 0xFD

    private static func base64(_ content: UnsafeBufferPointer<UInt8>, offset: Int) throws -> [UInt8] {
        let capacity = content.count / 4 * 3 + 3
        return try base64Values.withUnsafeBufferPointer { table in
            try [UInt8](unsafeUninitializedCapacity: capacity) { output, initializedCount in
                var written = 0
                var accumulator: UInt32 = 0
                var pending = 0
                var padding = 0
                var index = 0
                while index < content.count {
                    // Four digits at once while nothing else is in the way (most of a line).
                    if pending == 0, padding == 0, index + 4 <= content.count {
                        let a = table[Int(content[index])], b = table[Int(content[index + 1])]
                        let c = table[Int(content[index + 2])], d = table[Int(content[index + 3])]
                        if (a | b | c | d) < 64 {
                            Base64Group.write(a, b, c, d, to: output, at: written)
                            written += 3
                            index += 4
                            continue
                        }
                    }
                    let value = table[Int(content[index])]
                    if value < 64 {
                        guard padding == 0 else { throw error("data after base64 padding", at: offset + index) }
                        accumulator = accumulator << 6 | UInt32(value)
                        pending += 1
                        if pending == 4 {
                            output[written] = UInt8(truncatingIfNeeded: accumulator >> 16)
                            output[written + 1] = UInt8(truncatingIfNeeded: accumulator >> 8)
                            output[written + 2] = UInt8(truncatingIfNeeded: accumulator)
                            written += 3
                            accumulator = 0
                            pending = 0
                        }
                    } else if value == base64Pad {
                        padding += 1
                    } else if value != base64Skip {
                        throw error("invalid base64 in <data>", at: offset + index)
                    }
                    index += 1
                }
                switch pending {
                case 0:
                    guard padding == 0 else { throw error("invalid base64 padding in <data>", at: offset) }
                case 2:
                    guard padding == 0 || padding == 2 else { throw error("invalid base64 padding in <data>", at: offset) }
                    output[written] = UInt8(truncatingIfNeeded: accumulator >> 4)
                    written += 1
                case 3:
                    guard padding <= 1 else { throw error("invalid base64 padding in <data>", at: offset) }
                    output[written] = UInt8(truncatingIfNeeded: accumulator >> 10)
                    output[written + 1] = UInt8(truncatingIfNeeded: accumulator >> 2)
                    written += 2
                default:
                    throw error("truncated base64 in <data>", at: offset)
                }
                initializedCount = written
            }
        }
    }
}
