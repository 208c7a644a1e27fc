/// Parses a BER (and therefore DER) encoding once into flat `BERNode`s and walks them.
///
/// Accepts what CMS encoders write (X.690 §8.1): low and high tag numbers, definite short and
/// long-form lengths, indefinite lengths (`0x80`) closed by end-of-contents `00 00`, and constructed
/// strings, which `stringBytes(_:)` flattens. Rejects truncation, lengths beyond the input, lengths
/// of more than 8 octets, nesting deeper than `maxDepth`, more than `maxNodes` elements and more
/// than `allowedTrailingBytes` (0 unless the caller says) bytes after the outermost element. Every
/// failure is a `DecodeError` of `errorKind` whose `offset` is the byte offset where it was found.
struct BERReader: Sendable {
    static let defaultMaxDepth = 64
    static let defaultMaxNodes = 200_000

    let bytes: [UInt8]
    let nodes: [BERNode]
    let errorKind: DecodeError.Kind
    /// How many bytes followed the outermost element (at most `allowedTrailingBytes`); ignored.
    let trailingBytes: Int

    init(bytes: [UInt8], errorKind: DecodeError.Kind = .malformedEnvelope,
         maxDepth: Int = BERReader.defaultMaxDepth, maxNodes: Int = BERReader.defaultMaxNodes,
         allowedTrailingBytes: Int = 0) throws {
        var parser = Parser(bytes: bytes, errorKind: errorKind, maxDepth: maxDepth, maxNodes: maxNodes)
        // Sized from the input's length so the array is not copied again and again as it grows.
        parser.nodes.reserveCapacity(min(maxNodes, bytes.count / 24 + 64, 16_384))
        let end = try parser.parseElement(at: 0, limit: bytes.count, depth: 0)
        guard bytes.count - end <= allowedTrailingBytes else {
            let limit = allowedTrailingBytes > 0 ? " (at most \(allowedTrailingBytes) are ignored)" : ""
            throw DecodeError(errorKind, "\(bytes.count - end) trailing bytes after the outermost element\(limit)",
                              offset: end)
        }
        self.trailingBytes = bytes.count - end
        self.bytes = bytes
        self.nodes = parser.nodes
        self.errorKind = errorKind
    }

    /// The outermost element (parsing guarantees there is one).
    var root: BERNode { nodes[0] }

    /// The content octets of `node` (for a constructed node, the encodings of its children).
    func content(of node: BERNode) -> ArraySlice<UInt8> { bytes[node.contentStart..<node.contentEnd] }

    /// The whole encoding of `node`: identifier, length, content and any end-of-contents octets.
    func encoding(of node: BERNode) -> ArraySlice<UInt8> { bytes[node.headerOffset..<node.endOffset] }

    func error(_ reason: String, at offset: Int) -> DecodeError {
        DecodeError(errorKind, reason, offset: offset)
    }

    func error(_ reason: String, at node: BERNode) -> DecodeError {
        error(reason, at: node.headerOffset)
    }

    /// A cursor over the direct children of `node`.
    func children(of node: BERNode) -> BERChildren {
        BERChildren(reader: self, parent: node, nextIndex: node.index + 1)
    }

    // MARK: Combinators

    /// Runs `body` over the children of a constructed `node` tagged `tag`, then fails if any child
    /// was left unread.
    func constructed<T>(_ node: BERNode, _ tag: BERTag, _ what: String,
                        _ body: (inout BERChildren) throws -> T) throws -> T {
        guard node.tag == tag else { throw error("\(what): expected \(tag), found \(node.tag)", at: node) }
        guard node.isConstructed else { throw error("\(what): expected a constructed encoding", at: node) }
        var cursor = children(of: node)
        let result = try body(&cursor)
        try cursor.finish(what)
        return result
    }

    /// `SEQUENCE { … }`: runs `body` over its children; every child must be read.
    func sequence<T>(_ node: BERNode, _ what: String, _ body: (inout BERChildren) throws -> T) throws -> T {
        try constructed(node, .sequence, what, body)
    }

    /// `[n] EXPLICIT T`: the single element inside a constructed context-specific wrapper.
    func explicit(_ node: BERNode, _ number: UInt32, _ what: String) throws -> BERNode {
        try constructed(node, .contextSpecific(number), what) { inner in
            try inner.read(what)
        }
    }

    // MARK: Primitive values

    /// The content of a string-like element (OCTET STRING, character strings): primitive content as
    /// is, or a constructed (BER) encoding's primitive chunks of the same tag concatenated, at any depth.
    func stringBytes(_ node: BERNode) throws -> [UInt8] {
        guard node.isConstructed else { return Array(content(of: node)) }
        var out: [UInt8] = []
        var index = node.index + 1
        while index < node.nextSibling {
            let chunk = nodes[index]
            guard chunk.tag == node.tag else {
                throw error("constructed \(node.tag) holds a \(chunk.tag) chunk", at: chunk)
            }
            if !chunk.isConstructed { out.append(contentsOf: content(of: chunk)) }
            index += 1
        }
        return out
    }

    /// An OBJECT IDENTIFIER in dotted form ("1.2.840.113549.1.7.2"). Arcs must fit in 64 bits.
    func objectIdentifier(_ node: BERNode, _ what: String) throws -> String {
        guard node.tag == .objectIdentifier, !node.isConstructed else {
            throw error("\(what): expected an OBJECT IDENTIFIER, found \(node.tag)", at: node)
        }
        let octets = content(of: node)
        guard !octets.isEmpty else { throw error("\(what): empty OBJECT IDENTIFIER", at: node) }
        if let known = WellKnownOID.dotted(octets) { return known }
        // The dotted text is written as bytes: a String per arc, joined, was most of the cost of
        // the dozen identifiers a profile's envelope carries.
        var text: [UInt8] = []
        text.reserveCapacity(octets.count * 3)
        var value: UInt64 = 0
        var started = false
        for (position, byte) in zip(octets.indices, octets) {
            if !started && byte == 0x80 {
                throw error("\(what): OBJECT IDENTIFIER arc with a leading 0x80 octet", at: position)
            }
            started = true
            guard value <= UInt64.max >> 7 else {
                throw error("\(what): OBJECT IDENTIFIER arc does not fit in 64 bits", at: position)
            }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 {
                if text.isEmpty {
                    let first: UInt64 = value < 40 ? 0 : (value < 80 ? 1 : 2)
                    Self.appendDecimal(first, to: &text)
                    text.append(UInt8(ascii: "."))
                    Self.appendDecimal(value - first * 40, to: &text)
                } else {
                    text.append(UInt8(ascii: "."))
                    Self.appendDecimal(value, to: &text)
                }
                value = 0
                started = false
            }
        }
        guard !started else { throw error("\(what): truncated OBJECT IDENTIFIER", at: node.contentEnd) }
        return String(decoding: text, as: UTF8.self)
    }

    private static func appendDecimal(_ value: UInt64, to text: inout [UInt8]) {
        // Digits from the last, into a buffer on the stack (a UInt64 has at most 20): reversing
        // them in `text[start...]` copied the whole array, a dozen times a profile.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var index = buffer.count
            var rest = value
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            text.append(contentsOf: buffer[index...])
        }
    }

    /// The content octets of a primitive INTEGER, which must be minimal (X.690 §8.3.2) and non-empty.
    func integerBytes(_ node: BERNode, _ what: String) throws -> ArraySlice<UInt8> {
        guard node.tag == .integer, !node.isConstructed else {
            throw error("\(what): expected an INTEGER, found \(node.tag)", at: node)
        }
        let octets = content(of: node)
        guard let first = octets.first else { throw error("\(what): empty INTEGER", at: node) }
        if octets.count > 1 {
            let second = octets[octets.startIndex + 1]
            if (first == 0x00 && second & 0x80 == 0) || (first == 0xFF && second & 0x80 != 0) {
                throw error("\(what): INTEGER has redundant leading octets", at: node)
            }
        }
        return octets
    }
}

/// A cursor over the direct children of one node, consumed in order.
struct BERChildren {
    let reader: BERReader
    let parent: BERNode
    var nextIndex: Int

    /// The next child without consuming it.
    func peek() -> BERNode? {
        nextIndex < parent.nextSibling ? reader.nodes[nextIndex] : nil
    }

    mutating func next() -> BERNode? {
        guard let node = peek() else { return nil }
        nextIndex = node.nextSibling
        return node
    }

    /// The next child, whatever its tag; fails at the end of the parent's content if there is none.
    mutating func read(_ what: String) throws -> BERNode {
        guard let node = next() else {
            throw reader.error("\(what) is missing", at: parent.contentEnd)
        }
        return node
    }

    /// The next child, which must be tagged `tag`.
    mutating func read(_ tag: BERTag, _ what: String) throws -> BERNode {
        let node = try read(what)
        guard node.tag == tag else { throw reader.error("\(what): expected \(tag), found \(node.tag)", at: node) }
        return node
    }

    /// The next child if it is tagged `tag` (an OPTIONAL field); otherwise nothing is consumed.
    mutating func readOptional(_ tag: BERTag) -> BERNode? {
        guard let node = peek(), node.tag == tag else { return nil }
        nextIndex = node.nextSibling
        return node
    }

    /// Fails if any child is left unread.
    func finish(_ what: String) throws {
        if let extra = peek() {
            throw reader.error("\(what): unexpected \(extra.tag) element", at: extra)
        }
    }
}

extension BERReader {
    /// The single-pass recursive parser behind `BERReader.init`.
    private struct Parser {
        let bytes: [UInt8]
        let errorKind: DecodeError.Kind
        let maxDepth: Int
        let maxNodes: Int
        var nodes: [BERNode] = []

        func fail(_ reason: String, _ offset: Int) -> DecodeError {
            DecodeError(errorKind, reason, offset: offset)
        }

        /// Parses the element at `start`, which must end at or before `limit`; returns its end offset.
        ///
        /// ```
        /// element ::= identifier octets, length octets, content octets [, end-of-contents octets]
        /// ```
        mutating func parseElement(at start: Int, limit: Int, depth: Int) throws -> Int {
            guard depth < maxDepth else { throw fail("elements nested deeper than \(maxDepth) levels", start) }
            guard nodes.count < maxNodes else { throw fail("more than \(maxNodes) elements", start) }
            let (tag, isConstructed, lengthStart) = try readIdentifier(at: start, limit: limit)
            let (length, contentStart) = try readLength(at: lengthStart, limit: limit, isConstructed: isConstructed)

            let index = nodes.count
            nodes.append(BERNode(tag: tag, isConstructed: isConstructed, depth: depth, index: index,
                                 nextSibling: index + 1, headerOffset: start, contentStart: contentStart,
                                 contentEnd: contentStart, endOffset: contentStart,
                                 isIndefiniteLength: length == nil))
            let contentEnd: Int
            let endOffset: Int
            if let length {
                // Both length forms checked `length <= limit - contentStart`: no overflow, no overrun.
                contentEnd = contentStart + length
                endOffset = contentEnd
                if isConstructed { try parseChildren(from: contentStart, to: contentEnd, depth: depth + 1) }
            } else {
                (contentEnd, endOffset) = try parseIndefiniteContent(of: start, from: contentStart, limit: limit,
                                                                     depth: depth + 1)
            }
            nodes[index].contentEnd = contentEnd
            nodes[index].endOffset = endOffset
            nodes[index].nextSibling = nodes.count
            return endOffset
        }

        /// Identifier octets (X.690 §8.1.2): the tag, the constructed bit and the offset just past them.
        @inline(__always)  // once per element; measured with callgrind
        private func readIdentifier(at start: Int, limit: Int) throws
            -> (tag: BERTag, isConstructed: Bool, end: Int) {
            guard start < limit else { throw fail("truncated: identifier octet missing", start) }
            let first = bytes[start]
            let tagClass = BERTag.TagClass(rawValue: first >> 6) ?? .universal
            var number = UInt32(first & 0x1F)
            var end = start + 1
            if number == 0x1F { (number, end) = try readHighTagNumber(at: end, limit: limit) }
            let tag = BERTag(tagClass: tagClass, number: number)
            if tag == .universal(0) { throw fail("unexpected end-of-contents octets", start) }
            return (tag, first & 0x20 != 0, end)
        }

        /// A high tag number (X.690 §8.1.2.4): base-128 octets, the last with bit 8 clear, no leading
        /// 0x80; returns the number and the offset just past it.
        private func readHighTagNumber(at start: Int, limit: Int) throws -> (UInt32, Int) {
            var number: UInt32 = 0
            var position = start
            while true {
                guard position < limit else { throw fail("truncated: high tag number", position) }
                let byte = bytes[position]
                if position == start && byte == 0x80 {
                    throw fail("high tag number with a leading 0x80 octet", position)
                }
                guard number <= UInt32.max >> 7 else { throw fail("tag number does not fit in 32 bits", position) }
                number = number << 7 | UInt32(byte & 0x7F)
                position += 1
                if byte & 0x80 == 0 { return (number, position) }
            }
        }

        /// Length octets (X.690 §8.1.3): the content length (nil for the indefinite form, which only a
        /// constructed element may use) and the offset of the first content octet. A definite length
        /// never exceeds the bytes left before `limit`.
        @inline(__always)  // once per element; measured with callgrind
        private func readLength(at lengthOffset: Int, limit: Int, isConstructed: Bool) throws -> (Int?, Int) {
            guard lengthOffset < limit else { throw fail("truncated: length octet missing", lengthOffset) }
            let lengthOctet = bytes[lengthOffset]
            let position = lengthOffset + 1
            if lengthOctet < 0x80 {
                guard Int(lengthOctet) <= limit - position else {
                    throw fail("length \(lengthOctet) exceeds the \(limit - position) bytes available", lengthOffset)
                }
                return (Int(lengthOctet), position)
            }
            if lengthOctet == 0x80 {
                guard isConstructed else { throw fail("indefinite length on a primitive element", lengthOffset) }
                return (nil, position)
            }
            if lengthOctet == 0xFF { throw fail("reserved length octet 0xFF", lengthOffset) }
            return try readLongFormLength(count: Int(lengthOctet & 0x7F), at: lengthOffset, limit: limit)
        }

        /// The long form (X.690 §8.1.3.5): `count` (at most 8) big-endian octets after the initial one.
        private func readLongFormLength(count: Int, at lengthOffset: Int, limit: Int) throws -> (Int?, Int) {
            var position = lengthOffset + 1
            guard count <= 8 else { throw fail("length of \(count) octets (at most 8 accepted)", lengthOffset) }
            guard count <= limit - position else { throw fail("truncated: long-form length", lengthOffset) }
            var value: UInt64 = 0
            for _ in 0..<count {
                value = value << 8 | UInt64(bytes[position])
                position += 1
            }
            guard value <= UInt64(limit - position) else {
                throw fail("length \(value) exceeds the \(limit - position) bytes available", lengthOffset)
            }
            return (Int(value), position)
        }

        /// The children of a definite-length constructed element, which fill `start..<end` exactly.
        private mutating func parseChildren(from start: Int, to end: Int, depth: Int) throws {
            var child = start
            while child < end {
                child = try parseElement(at: child, limit: end, depth: depth)
            }
        }

        /// The children of the indefinite-length element at `element`, up to its end-of-contents octets
        /// `00 00` (X.690 §8.1.5); returns the content end (at those octets) and the offset past them.
        private mutating func parseIndefiniteContent(of element: Int, from start: Int, limit: Int,
                                                     depth: Int) throws -> (Int, Int) {
            var child = start
            while true {
                guard child < limit else {
                    throw fail("indefinite-length element has no end-of-contents octets", element)
                }
                if bytes[child] == 0x00 {
                    guard child + 1 < limit else { throw fail("truncated: end-of-contents octets", child) }
                    guard bytes[child + 1] == 0x00 else {
                        throw fail("end-of-contents octets with a non-zero length", child + 1)
                    }
                    return (child, child + 2)
                }
                child = try parseElement(at: child, limit: limit, depth: depth)
            }
        }
    }
}
