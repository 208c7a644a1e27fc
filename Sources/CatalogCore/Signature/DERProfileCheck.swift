import Foundation

/// How a profile's `DER-Encoded-Profile` (a DER copy of the profile inside its own CMS message)
/// compares with the XML plist: `match`, `mismatch` with the differing keys, or `absent`.
public struct DERProfileCheck: Sendable, Equatable, Hashable, Codable {
    public enum Status: String, Sendable, CaseIterable, Codable {
        case match, mismatch, absent
    }

    public var status: Status
    /// Plist key names whose values differ (`DER-Encoded-Profile` itself when the copy is unreadable).
    public var differences: [String]

    public init(_ status: Status, differences: [String] = []) {
        self.status = status
        self.differences = differences
    }

    /// The keys cross-checked: identity, team, dates, devices and entitlements.
    static let comparedKeys = ["UUID", "Name", "TeamIdentifier", "TeamName", "CreationDate", "ExpirationDate",
                               "ProvisionedDevices", "Entitlements"]

    /// Compares the DER copy carried by `plist` with the plist itself.
    ///
    /// A compared key is checked when the DER copy carries it; one the copy lacks is not a
    /// difference (Apple omits `ProvisionedDevices` when there are none, and older or synthetic
    /// copies carry fewer keys), but a key the copy carries and the plist lacks is. The copy's own
    /// signature is not checked: it sits inside the plist, which the outer signature covers.
    static func compare(plist: PlistDictionary) -> DERProfileCheck {
        guard case .data(let bytes)? = plist["DER-Encoded-Profile"] else { return DERProfileCheck(.absent) }
        guard let copy = try? DERProfilePayload.decode(bytes) else {
            return DERProfileCheck(.mismatch, differences: ["DER-Encoded-Profile"])
        }
        var differences: [String] = []
        for key in comparedKeys {
            guard let derValue = copy[key] else { continue }
            guard let xmlValue = plist[key], same(normalized(key, derValue), normalized(key, xmlValue)) else {
                differences.append(key)
                continue
            }
        }
        return differences.isEmpty ? DERProfileCheck(.match) : DERProfileCheck(.mismatch, differences: differences)
    }

    /// TeamIdentifier may be a single string in a copy; UUIDs compare case-insensitively; device
    /// lists compare as sets (order carries no meaning).
    private static func normalized(_ key: String, _ value: PlistValue) -> PlistValue {
        switch (key, value) {
        case ("TeamIdentifier", .string(let team)): return .array([.string(team)])
        case ("UUID", .string(let uuid)): return .string(uuid.uppercased())
        case ("ProvisionedDevices", .array(let devices)):
            return .array(devices.sorted { ($0.string ?? "") < ($1.string ?? "") })
        default: return value
        }
    }

    /// Deep equality with dictionaries compared regardless of key order and dates to the second.
    static func same(_ a: PlistValue, _ b: PlistValue) -> Bool {
        switch (a, b) {
        case (.dictionary(let x), .dictionary(let y)):
            guard x.count == y.count else { return false }
            for (key, value) in x {
                guard let other = y[key], same(value, other) else { return false }
            }
            return true
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.date(let x), .date(let y)):
            return x.timeIntervalSince1970.rounded(.down) == y.timeIntervalSince1970.rounded(.down)
        case (.integer, _), (.unsignedInteger, _):
            return a.integer != nil && a.integer == b.integer
        default:
            return a == b
        }
    }
}

/// The payload of a `DER-Encoded-Profile`: a DER `SET OF SEQUENCE { key UTF8String, value }`, in
/// Apple's DER-plist encoding (as in DER entitlements): UTF8String, INTEGER, BOOLEAN, UTCTime or
/// GeneralizedTime dates, SEQUENCE arrays, `[16]` (context, constructed) dictionaries of key/value
/// SEQUENCEs, and entitlements wrapped as `[APPLICATION 16] { INTEGER version, [16] dict }`.
enum DERProfilePayload {
    static func decode(_ bytes: [UInt8]) throws -> PlistDictionary {
        let envelope = try CMSSignedData(bytes: bytes)
        let reader = try BERReader(bytes: envelope.content, errorKind: .malformedEnvelope)
        guard reader.root.tag == .set || reader.root.tag == .contextSpecific(16) else {
            throw reader.error("DER profile payload: expected a SET, found \(reader.root.tag)", at: reader.root)
        }
        return try dictionary(reader.root, reader, depth: 0)
    }

    /// A code signature's DER entitlements blob content: `[APPLICATION 16] { version, [16] dict }`.
    /// Throws `DecodeError` of kind `errorKind`.
    static func entitlements(_ bytes: [UInt8], errorKind: DecodeError.Kind) throws -> PlistDictionary {
        let reader = try BERReader(bytes: bytes, errorKind: errorKind)
        guard case .dictionary(let entitlements) = try value(reader.root, reader, depth: 0) else {
            throw reader.error("DER entitlements: expected a dictionary, found \(reader.root.tag)", at: reader.root)
        }
        return entitlements
    }

    private static func dictionary(_ node: BERNode, _ reader: BERReader, depth: Int) throws -> PlistDictionary {
        guard node.isConstructed else { throw reader.error("DER dictionary: expected a constructed element", at: node) }
        var result = PlistDictionary()
        var entries = reader.children(of: node)
        while let entry = entries.next() {
            try reader.sequence(entry, "DER dictionary entry") { pair in
                let keyNode = try pair.read("key")
                guard let key = try X509Certificate.decodeString(keyNode, reader) else {
                    throw reader.error("DER dictionary key: expected a string, found \(keyNode.tag)", at: keyNode)
                }
                result[key] = try value(try pair.read("value"), reader, depth: depth + 1)
            }
        }
        return result
    }

    private static func value(_ node: BERNode, _ reader: BERReader, depth: Int) throws -> PlistValue {
        guard depth < 32 else { throw reader.error("DER profile nested too deeply", at: node) }
        switch node.tag {
        case .boolean:
            return .bool(reader.content(of: node).first.map { $0 != 0 } ?? false)
        case .integer:
            let octets = try reader.integerBytes(node, "DER integer")
            guard octets.count <= 8 else { throw reader.error("DER integer wider than 64 bits", at: node) }
            var value: Int64 = octets.first! & 0x80 != 0 ? -1 : 0
            for byte in octets { value = value << 8 | Int64(byte) }
            return .integer(value)
        case .utcTime, .generalizedTime:
            return .date(try X509Certificate.parseTime(node, reader))
        case .octetString:
            return .data(try reader.stringBytes(node))
        case .sequence:
            var items: [PlistValue] = []
            var children = reader.children(of: node)
            while let child = children.next() { items.append(try value(child, reader, depth: depth + 1)) }
            return .array(items)
        case .contextSpecific(16), .set:
            // `[16]` in Apple's wrapped form; a bare SET of key/value SEQUENCEs in re-signed builds.
            return .dictionary(try dictionary(node, reader, depth: depth))
        case BERTag(tagClass: .application, number: 16):
            // [APPLICATION 16] { version INTEGER, [16] dictionary }
            var children = reader.children(of: node)
            _ = try children.read(.integer, "DER entitlements version")
            let dict = try children.read(.contextSpecific(16), "DER entitlements dictionary")
            return .dictionary(try dictionary(dict, reader, depth: depth))
        default:
            if let text = try X509Certificate.decodeString(node, reader) { return .string(text) }
            throw reader.error("DER profile value of unsupported type \(node.tag)", at: node)
        }
    }
}
