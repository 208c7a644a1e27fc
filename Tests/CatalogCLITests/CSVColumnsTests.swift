import CatalogTestSupport
import Foundation
import Testing

/// CSV and NDJSON carry what JSON carries, for every query command: CSV's header is the JSON keys
/// in JSON's order (nested objects flattened as `last_run.status`, lists of objects as one column
/// per member key) and each cell the JSON value as text (lists joined with `;`, `true`/`false`,
/// empty for null or a key the row's kind lacks).
@Suite(.timeLimit(.minutes(10))) struct CSVColumnsTests {
    typealias Catalogue = QueryCommandTests.Catalogue
    static let adhoc = "080B4AFF-C595-4955-AEED-8B8810E698FC"
    static let device = "cf2a7c46a4133dc358388825e5778ad368eb9c0d"
    static let window = ["--days", "400", "--as-of", "2026-11-20"]

    static var commands: [[String]] {
        let fixtures = CatalogProcess.fixtures
        return [
            ["expiring"] + window,
            ["expiring", "--include-expired", "--include-superseded", "--all-locations"] + window,
            ["expiring", "--builds", "--include-expired"] + window,
            ["profiles"], ["profiles", "--bundle-id", "com.example.app"], ["builds", "--include-removed"],
            ["versions", "com.example.app"], ["certificates"], ["devices"], ["devices", device, "--as-of", "2026-11-20"],
            ["runs"], ["errors"],
            ["verify", fixtures + "/profiles/ios-adhoc.mobileprovision", fixtures + "/malformed/garbage.mobileprovision"],
            ["verify", fixtures + "/codesign/ExtraEntitlements.app", fixtures + "/codesign/Signed.ipa",
             fixtures + "/profiles/ios-adhoc.mobileprovision", "--as-of", "2026-09-01"],
            ["prune", fixtures + "/renewals", fixtures + "/profiles", "--expired", "--superseded", "--as-of", "2026-11-20"],
            ["show", adhoc, "--as-of", "2026-11-20"], ["stats"],
        ]
    }

    @Test func csvAndNDJSONCarryEveryJSONKeyOfEveryCommand() throws {
        let catalogue = try Catalogue()
        for command in Self.commands {
            let json = try OrderedJSON.parse(try catalogue.run(command + ["--json"]).stdout)
            let records: [OrderedJSON]
            if case .array(let rows) = json { records = rows } else { records = [json] }
            #expect(!records.isEmpty, "\(command): the fixtures give rows")

            let ndjson = try catalogue.run(command + ["--format", "ndjson"]).stdout.split(separator: "\n")
            // `stats`' ages grow between the two runs: compared without them.
            #expect(try ndjson.map { try OrderedJSON.parse(String($0)).timeless } == records.map(\.timeless),
                    "\(command): NDJSON is JSON's rows")

            let csv = CSV.parse(try catalogue.run(command + ["--format", "csv"]).stdout)
            let flattened = records.map(Self.flatten)
            var keys: [String] = []
            for row in flattened { for (key, _) in row where !keys.contains(key) { keys.append(key) } }
            #expect(csv.first == keys, "\(command): CSV's header is JSON's keys")
            #expect(csv.count == records.count + 1, "\(command)")
            // `stats`' ages grow between the two runs.
            let timeless = keys.indices.filter { !keys[$0].hasSuffix("age_seconds") }
            for (cells, row) in zip(csv.dropFirst(), flattened) {
                guard cells.count == keys.count else {
                    Issue.record("\(command): a row of \(cells.count) cells under \(keys.count) columns")
                    continue
                }
                let values = Dictionary(row, uniquingKeysWith: { first, _ in first })
                #expect(timeless.map { cells[$0] } == timeless.map { values[keys[$0]] ?? "" },
                        "\(command): a row's cells are its JSON values")
            }
        }
    }

    @Test func theColumnsScriptsAskedFor() throws {
        let catalogue = try Catalogue()
        let profiles = CSV.parse(try catalogue.run(["profiles", "--format", "csv"]).stdout)
        #expect(profiles.first == [
            "type", "uuid", "name", "team_id", "team_name", "kind", "platforms", "os", "bundle_id", "application_identifier",
            "creation_date", "expiration_date", "effective_expiration_date", "expiry_cause", "days_left", "device_count",
            "provisions_all_devices", "aps_environment", "get_task_allow", "xcode_managed", "signature", "der_profile", "host",
            "path", "installed", "superseded_by",
        ])
        let builds = CSV.parse(try catalogue.run(["builds", "--format", "csv"]).stdout)
        for key in ["short_version", "build", "days_left", "profile_uuid", "launches_until"] {
            #expect(builds.first?.contains(key) == true, "builds CSV has \(key)")
        }
        // `expiring`: a certificate's SHA-1 under `sha1`, never under `uuid`.
        let expiring = CSV.parse(try catalogue.run(["expiring", "--format", "csv"] + Self.window).stdout)
        let header = try #require(expiring.first)
        let type = try #require(header.firstIndex(of: "type")), uuid = try #require(header.firstIndex(of: "uuid"))
        let sha1 = try #require(header.firstIndex(of: "sha1"))
        let certificates = expiring.dropFirst().filter { $0[type] == "certificate" }
        #expect(!certificates.isEmpty)
        #expect(certificates.allSatisfy { $0[uuid].isEmpty && $0[sha1].count == 40 })
        #expect(expiring.dropFirst().filter { $0[type] == "profile" }.allSatisfy { $0[uuid].count == 36 && $0[sha1].isEmpty })
    }

    /// A build row's lists of objects and their members (docs/json-schema.md, "build row"): their
    /// columns are there when a row's list is empty too.
    static let buildRowLists = [
        "executables": ["role", "path", "bundle_id", "architectures", "code_signature", "error"],
        "dsyms": ["path", "architectures", "error"],
        "signing_problems": ["code", "executable", "message"],
    ]

    /// The documented flattening, written again here: `parent.key` for a nested object's keys, one
    /// column per member key for a list of objects (the items' values joined with `;`).
    static func flatten(_ value: OrderedJSON) -> [(String, String)] {
        var cells: [(String, String)] = []
        let isBuildRow = value.pairs?.contains { $0.0 == "type" && $0.1 == .string("build") } ?? false
        func walk(_ value: OrderedJSON, _ name: String?) {
            func child(_ key: String) -> String { name.map { "\($0).\(key)" } ?? key }
            if isBuildRow, let name, case .array(let items) = value, items.isEmpty, let members = buildRowLists[name] {
                cells += members.map { (child($0), "") }
                return
            }
            switch value {
            case .object(let pairs) where !pairs.isEmpty || name == nil:
                for (key, member) in pairs { walk(member, child(key)) }
            case .array(let items) where !items.isEmpty && items.allSatisfy({ $0.pairs != nil }):
                var keys: [String] = []
                for item in items { for (key, _) in item.pairs ?? [] where !keys.contains(key) { keys.append(key) } }
                for key in keys {
                    cells.append((child(key), items.map { item in item.pairs?.first { $0.0 == key }.map { text($0.1) } ?? "" }
                        .joined(separator: ";")))
                }
            default:
                cells.append((name ?? "", text(value)))
            }
        }
        walk(value, nil)
        return cells
    }

    static func text(_ value: OrderedJSON) -> String {
        switch value {
        case .null: return ""
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let literal), .string(let literal): return literal
        case .array(let items): return items.map(text).joined(separator: ";")
        case .object(let pairs): return pairs.map { "\($0.0)=\(text($0.1))" }.joined(separator: ";")
        }
    }
}

/// JSON with its objects' keys in the order printed (Foundation's parser forgets it), numbers as
/// written.
indirect enum OrderedJSON: Equatable {
    case null, bool(Bool), number(String), string(String), array([OrderedJSON]), object([(String, OrderedJSON)])

    var pairs: [(String, OrderedJSON)]? { if case .object(let pairs) = self { pairs } else { nil } }

    /// The value without its `age_seconds` keys, at any depth: they change from one run to the next.
    var timeless: OrderedJSON {
        switch self {
        case .object(let pairs): return .object(pairs.filter { !$0.0.hasSuffix("age_seconds") }.map { ($0.0, $0.1.timeless) })
        case .array(let items): return .array(items.map(\.timeless))
        default: return self
        }
    }

    static func == (left: OrderedJSON, right: OrderedJSON) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)), (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: return false
        }
    }

    struct Malformed: Error { var offset: Int }

    static func parse(_ text: String) throws -> OrderedJSON {
        var parser = Parser(bytes: Array(text.utf8))
        let value = try parser.value()
        parser.skipSpace()
        guard parser.offset == parser.bytes.count else { throw Malformed(offset: parser.offset) }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var offset = 0

        mutating func skipSpace() {
            while offset < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[offset]) { offset += 1 }
        }

        mutating func expect(_ byte: UInt8) throws {
            skipSpace()
            guard offset < bytes.count, bytes[offset] == byte else { throw Malformed(offset: offset) }
            offset += 1
        }

        mutating func value() throws -> OrderedJSON {
            skipSpace()
            guard offset < bytes.count else { throw Malformed(offset: offset) }
            switch bytes[offset] {
            case UInt8(ascii: "{"):
                offset += 1
                var pairs: [(String, OrderedJSON)] = []
                skipSpace()
                if bytes[offset] == UInt8(ascii: "}") { offset += 1; return .object(pairs) }
                repeat {
                    skipSpace()
                    let key = try string()
                    try expect(UInt8(ascii: ":"))
                    pairs.append((key, try value()))
                    skipSpace()
                    offset += 1
                } while bytes[offset - 1] == UInt8(ascii: ",")
                guard bytes[offset - 1] == UInt8(ascii: "}") else { throw Malformed(offset: offset) }
                return .object(pairs)
            case UInt8(ascii: "["):
                offset += 1
                var items: [OrderedJSON] = []
                skipSpace()
                if bytes[offset] == UInt8(ascii: "]") { offset += 1; return .array(items) }
                repeat {
                    items.append(try value())
                    skipSpace()
                    offset += 1
                } while bytes[offset - 1] == UInt8(ascii: ",")
                guard bytes[offset - 1] == UInt8(ascii: "]") else { throw Malformed(offset: offset) }
                return .array(items)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): offset += 4; return .bool(true)
            case UInt8(ascii: "f"): offset += 5; return .bool(false)
            case UInt8(ascii: "n"): offset += 4; return .null
            default:
                let start = offset
                while offset < bytes.count, "-+.eE0123456789".utf8.contains(bytes[offset]) { offset += 1 }
                guard offset > start else { throw Malformed(offset: offset) }
                return .number(String(decoding: bytes[start..<offset], as: UTF8.self))
            }
        }

        mutating func string() throws -> String {
            try expect(UInt8(ascii: "\""))
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
                raw.removeAll()
            }
            func hex4() throws -> UInt32 {
                guard offset + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[offset..<offset + 4], as: UTF8.self), radix: 16)
                else { throw Malformed(offset: offset) }
                offset += 4
                return value
            }
            while offset < bytes.count {
                let byte = bytes[offset]
                offset += 1
                if byte == UInt8(ascii: "\"") { flush(); return String(scalars) }
                guard byte == UInt8(ascii: "\\") else { raw.append(byte); continue }
                flush()
                let escape = bytes[offset]
                offset += 1
                switch escape {
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "u"):
                    var value = try hex4()
                    if (0xD800..<0xDC00).contains(value), bytes[offset] == UInt8(ascii: "\\") {
                        offset += 2
                        value = 0x10000 + ((value - 0xD800) << 10) + (try hex4() - 0xDC00)
                    }
                    scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
                default: scalars.append(Unicode.Scalar(escape))
                }
            }
            throw Malformed(offset: offset)
        }
    }
}

/// RFC 4180 read back: rows of cells, quoted cells unquoted.
enum CSV {
    static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], cell = "", quoted = false
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" { characters.removeFirst(); cell.append("\"") } else { quoted = false }
                } else {
                    cell.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                row.append(cell)
                cell = ""
            } else if character == "\r\n" || character == "\n" {
                row.append(cell)
                rows.append(row)
                row = []
                cell = ""
            } else {
                cell.append(character)
            }
        }
        if !cell.isEmpty || !row.isEmpty { rows.append(row + [cell]) }
        return rows
    }
}
