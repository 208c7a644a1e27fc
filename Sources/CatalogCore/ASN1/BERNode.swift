/// An ASN.1 tag: its class and number (the constructed bit is kept on `BERNode`).
struct BERTag: Hashable, Sendable, CustomStringConvertible {
    enum TagClass: UInt8, Sendable {
        case universal = 0, application = 1, contextSpecific = 2, `private` = 3
    }

    var tagClass: TagClass
    var number: UInt32

    static func universal(_ number: UInt32) -> BERTag { BERTag(tagClass: .universal, number: number) }
    static func contextSpecific(_ number: UInt32) -> BERTag { BERTag(tagClass: .contextSpecific, number: number) }

    static let boolean = universal(1)
    static let integer = universal(2)
    static let bitString = universal(3)
    static let octetString = universal(4)
    static let null = universal(5)
    static let objectIdentifier = universal(6)
    static let utf8String = universal(12)
    static let sequence = universal(16)
    static let set = universal(17)
    static let numericString = universal(18)
    static let printableString = universal(19)
    static let t61String = universal(20)
    static let ia5String = universal(22)
    static let utcTime = universal(23)
    static let generalizedTime = universal(24)
    static let visibleString = universal(26)
    static let universalString = universal(28)
    static let bmpString = universal(30)

    var description: String {
        switch tagClass {
        case .universal: "[UNIVERSAL \(number)]"
        case .application: "[APPLICATION \(number)]"
        case .contextSpecific: "[\(number)]"
        case .private: "[PRIVATE \(number)]"
        }
    }
}

/// One element of a BER encoding, as positions in the original byte array (nothing is copied).
///
/// Nodes are stored flat, in document (pre-)order; `nextSibling` is the index just past this
/// node's subtree, so the children of node `i` are `i + 1`, then `nodes[i + 1].nextSibling`, … up
/// to `nextSibling`.
struct BERNode: Hashable, Sendable {
    var tag: BERTag
    var isConstructed: Bool
    /// 0 for the outermost element.
    var depth: Int
    /// Index of this node in `BERReader.nodes`.
    var index: Int
    /// Index just past this node's subtree in `BERReader.nodes`.
    var nextSibling: Int
    /// Offset of the identifier octet.
    var headerOffset: Int
    /// Offset of the first content octet.
    var contentStart: Int
    /// Offset just past the last content octet (the end-of-contents octets are excluded).
    var contentEnd: Int
    /// Offset just past the whole element (including end-of-contents octets, if any).
    var endOffset: Int
    /// Whether the length was the indefinite form (`0x80`), terminated by `00 00`.
    var isIndefiniteLength: Bool

    var hasChildren: Bool { nextSibling > index + 1 }
}
