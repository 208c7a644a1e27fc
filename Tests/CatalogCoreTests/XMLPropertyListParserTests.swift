import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

private func parseXML(_ text: String) throws -> PlistValue {
    let result = try PropertyListReader.parse(Array(text.utf8))
    #expect(result.format == .xml)
    return result.value
}

private func wrap(_ body: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    \(body)
    </plist>

    """
}

/// The error thrown by parsing `bytes`, or nil (recorded as a failure) when it parses.
func parseError(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> DecodeError? {
    parseError(Result { try PropertyListReader.parse(bytes).value }, sourceLocation: sourceLocation)
}

/// Whether parsing `bytes` threw a ``DecodeError``; any other error is recorded as a failure.
func refusedAsDecodeError(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    do {
        _ = try PropertyListReader.parse(bytes)
        return false
    } catch is DecodeError {
        return true
    } catch {
        Issue.record("not a DecodeError: \(error)", sourceLocation: sourceLocation)
        return false
    }
}

/// Parses each of `inputs` on a thread with the decoders' stack (``DecodingStack``): input nested to
/// the depth limit recurses further than a test thread of the platform's default size may hold.
func parseOnDecodingStack(_ inputs: [[UInt8]]) throws -> [Result<PlistValue, any Error>] {
    try ThreadOfKnownSize.run(stackSize: DecodingStack.size) {
        inputs.map { bytes in Result { try PropertyListReader.parse(bytes).value } }
    }
}

/// The error a parse threw, or nil (recorded as a failure) when it parsed.
func parseError(_ outcome: Result<PlistValue, any Error>, sourceLocation: SourceLocation = #_sourceLocation) -> DecodeError? {
    do {
        let value = try outcome.get()
        Issue.record("expected an error, parsed \(value)", sourceLocation: sourceLocation)
        return nil
    } catch let error as DecodeError {
        #expect(error.kind == .malformedPlist, sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("unexpected error type \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

private func parseError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> DecodeError? {
    parseError(Array(text.utf8), sourceLocation: sourceLocation)
}

private let sampleDocument = wrap("""
    <dict>
        <key>Name</key>
        <string>Tom &amp; Jerry &lt;3 &gt; &quot;x&quot; &apos;y&apos; &#32418; &#x7EA2; &#128512;</string>
        <key>Count</key>
        <integer>42</integer>
        <key>Negative</key>
        <integer>-17</integer>
        <key>Pi</key>
        <real>3.25</real>
        <key>Yes</key>
        <true/>
        <key>No</key>
        <false/>
        <key>Created</key>
        <date>2021-08-02T13:05:06Z</date>
        <key>Blob</key>
        <data>
        AAEC
        /w==
        </data>
        <key>List</key>
        <array>
            <string>a</string>
            <!-- a comment -->
            <dict/>
            <array/>
            <string/>
        </array>
        <key>Empty</key>
        <string></string>
    </dict>
    """)

/// Namespace for the plist suites, so `swift test --filter Plist` selects all of them.
@Suite(.timeLimit(.minutes(10))) enum PlistTests {}

extension PlistTests {
    @Suite struct XMLPropertyListParserTests {
        @Test func parsesEveryElement() throws {
            let value = try parseXML(sampleDocument)
            let dictionary = try #require(value.dictionary)
            #expect(dictionary.keys == ["Name", "Count", "Negative", "Pi", "Yes", "No", "Created", "Blob", "List", "Empty"])
            #expect(dictionary["Name"] == .string("Tom & Jerry <3 > \"x\" 'y' 红 红 😀"))
            #expect(dictionary["Count"] == .integer(42))
            #expect(dictionary["Negative"] == .integer(-17))
            #expect(dictionary["Pi"] == .real(3.25))
            #expect(dictionary["Yes"] == .bool(true))
            #expect(dictionary["No"] == .bool(false))
            #expect(dictionary["Created"] == .date(Date(timeIntervalSince1970: 1_627_909_506)))
            #expect(dictionary["Blob"] == .data([0, 1, 2, 255]))
            #expect(dictionary["List"] == .array([.string("a"), .dictionary(PlistDictionary()), .array([]), .string("")]))
            #expect(dictionary["Empty"] == .string(""))
        }

        @Test func agreesWithFoundationOnSample() throws {
            let ours = try parseXML(sampleDocument)
            let theirs = try PropertyListSerialization.propertyList(from: Data(sampleDocument.utf8), format: nil)
            #expect(canonical(ours) == canonical(try #require(foundationValue(theirs))))
        }

        @Test func emptyAndExplicitForms() throws {
            #expect(try parseXML(wrap("<true></true>")) == .bool(true))
            #expect(try parseXML(wrap("<false> </false>")) == .bool(false))
            #expect(try parseXML(wrap("<dict></dict>")) == .dictionary(PlistDictionary()))
            #expect(try parseXML(wrap("<array></array>")) == .array([]))
            #expect(try parseXML(wrap("<data/>")) == .data([]))
            #expect(try parseXML(wrap("<dict><key/><string/></dict>")) == .dictionary(PlistDictionary([("", .string(""))])))
            #expect(try parseXML(wrap("<string  />")) == .string(""))
            #expect(try parseXML(wrap("<array ><string >x</string ></array\n>")) == .array([.string("x")]))
        }

        @Test func bareRootWithoutPlistElementBOMAndWhitespace() throws {
            #expect(try parseXML("<string>hi</string>") == .string("hi"))
            #expect(try parseXML("  \n<array><integer>1</integer></array>\n") == .array([.integer(1)]))
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(wrap("<string>x</string>").utf8)
            #expect(try PropertyListReader.parse(bom).value == .string("x"))
            #expect(try parseXML("<!-- lead --><?xml-stylesheet x?><plist><integer>1</integer></plist><!-- tail -->")
                    == .integer(1))
            #expect(try parseXML("<!DOCTYPE plist [ <!ENTITY x \"]>\"> ]><plist><true/></plist>") == .bool(true))
        }

        @Test func whitespaceIsKeptInStringsAndKeys() throws {
            let value = try parseXML(wrap("<dict><key> k </key><string>\n a\tb \n</string></dict>"))
            #expect(value.dictionary?[" k "] == .string("\n a\tb \n"))
            #expect(try parseXML("<string>a\r\nb</string>") == .string("a\r\nb"), "line ends are not normalized")
        }

        @Test func entitiesAndCharacterReferences() throws {
            #expect(try parseXML("<string>&#65;&#x42;&#x63;</string>") == .string("ABc"))
            #expect(try parseXML("<string>a&#10;b&#x9;c</string>") == .string("a\nb\tc"))
            #expect(try parseXML("<string>&#0000065;&#x00000042;</string>") == .string("AB"))
            for bad in ["&#0;", "&#x110000;", "&#xD800;", "&#xDFFF;", "&#1;", "&#xFFFE;", "&#;", "&#x;", "&#12a;",
                        "&#99999999999999;", "&nbsp;", "&amp", "& ;", "&AMP;", "&#-1;", "&#X43;"] {
                let error = parseError("<string>ab\(bad)</string>")
                #expect(error?.offset == 10, "\(bad)")
            }
        }

        @Test func cdataAndCommentsInsideText() throws {
            #expect(try parseXML("<string>a<![CDATA[<b>&amp;]]>c</string>") == .string("a<b>&amp;c"))
            #expect(try parseXML("<string><![CDATA[]]></string>") == .string(""))
            #expect(try parseXML("<string>x<!-- hidden -->y&amp;</string>") == .string("xy&"))
            #expect(try parseXML("<integer>1<!-- c -->2</integer>") == .integer(12))
            #expect(parseError("<string><![CDATA[abc</string>") != nil)
            #expect(parseError("<string>ab<b>c</b></string>")?.offset == 10)
        }

        @Test func base64Data() throws {
            #expect(try parseXML("<data>SGVs\n\tbG8g\r\nV29y bGQ=</data>") == .data(Array("Hello World".utf8)))
            #expect(try parseXML("<data>SGVsbG8</data>") == .data(Array("Hello".utf8)), "padding may be omitted")
            #expect(try parseXML("<data>SGVsbA==</data>") == .data(Array("Hell".utf8)))
            #expect(try parseXML("<data>  </data>") == .data([]))
            #expect(try parseXML("<data>+/8=</data>") == .data([0xFB, 0xFF]))
            for bad in ["SGVsbG8*", "S", "SGVsb", "SG=Vs", "SGVsbA===", "=", "SGVsbA=x", "SGV-", "SGVsbG8\u{0}"] {
                #expect(parseError("<data>\(bad)</data>") != nil, "\(bad)")
            }
            #expect(parseError("<data>AAAA*AAA</data>")?.offset == 10)
        }

        @Test func dates() throws {
            #expect(try parseXML("<date>2021-08-02T13:05:06Z</date>") == .date(Date(timeIntervalSince1970: 1_627_909_506)))
            #expect(try parseXML("<date> 1970-01-01T00:00:00Z </date>") == .date(Date(timeIntervalSince1970: 0)))
            #expect(try parseXML("<date>2001-01-01T00:00:00Z</date>") == .date(Date(timeIntervalSinceReferenceDate: 0)))
            #expect(try parseXML("<date>2024-02-29T23:59:59Z</date>")
                    == .date(Date(timeIntervalSince1970: 1_709_251_199)))
            #expect(try parseXML("<date>1969-12-31T23:59:59Z</date>") == .date(Date(timeIntervalSince1970: -1)))
            #expect(try parseXML("<date>2021-08Z</date>") == .date(Date(timeIntervalSince1970: 1_627_776_000)))
            for bad in ["2021-08-02T13:05:06", "2021-13-02T13:05:06Z", "2023-02-29T00:00:00Z", "2021-08-02T24:00:00Z",
                        "2021-08-02 13:05:06Z", "21-08-02T13:05:06Z", "2021-08-02T13:05:06Zx", "", "2021-08-02T13:60:00Z",
                        "2021-08-00T00:00:00Z"] {
                #expect(parseError("<date>\(bad)</date>") != nil, "\(bad)")
            }
        }

        @Test func integers() throws {
            #expect(try parseXML("<integer>0</integer>") == .integer(0))
            #expect(try parseXML("<integer> +7 </integer>") == .integer(7))
            #expect(try parseXML("<integer>-9223372036854775808</integer>") == .integer(Int64.min))
            #expect(try parseXML("<integer>9223372036854775807</integer>") == .integer(Int64.max))
            #expect(try parseXML("<integer>9223372036854775808</integer>") == .unsignedInteger(9_223_372_036_854_775_808))
            #expect(try parseXML("<integer>18446744073709551615</integer>") == .unsignedInteger(UInt64.max))
            #expect(try parseXML("<integer>0x7EA2</integer>") == .integer(0x7EA2))
            #expect(try parseXML("<integer>-0x10</integer>") == .integer(-16))
            #expect(try parseXML("<integer>0xFFFFFFFFFFFFFFFF</integer>") == .unsignedInteger(UInt64.max))
            for bad in ["18446744073709551616", "-9223372036854775809", "", "12a", "1.5", "--1", "0x", "-", "1 2",
                        "99999999999999999999999999"] {
                #expect(parseError("<integer>\(bad)</integer>") != nil, "\(bad)")
            }
            #expect(parseError("<integer/>") != nil)
        }

        @Test func reals() throws {
            #expect(try parseXML("<real>1.5e3</real>") == .real(1500))
            #expect(try parseXML("<real>-0.25</real>") == .real(-0.25))
            #expect(try parseXML("<real> 7 </real>") == .real(7))
            #expect(try parseXML("<real>inf</real>") == .real(.infinity))
            #expect(try parseXML("<real>-infinity</real>") == .real(-.infinity))
            guard case .real(let nan) = try parseXML("<real>nan</real>") else { Issue.record("not a real"); return }
            #expect(nan.isNaN)
            for bad in ["", "abc", "1.2.3", "1e", "１"] {
                #expect(parseError("<real>\(bad)</real>") != nil, "\(bad)")
            }
        }

        @Test func invalidUTF8IsAnErrorWithOffset() throws {
            var bytes = Array("<plist><string>ab".utf8)
            bytes += [0xC3, 0x28]  // 0xC3 needs a continuation byte
            bytes += Array("</string></plist>".utf8)
            #expect(parseError(bytes)?.offset == 17)
            for sequence: [UInt8] in [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
                                      [0x80], [0xF0, 0x9F, 0x98]] {
                let document = Array("<key>".utf8) + sequence + Array("</key>".utf8)
                #expect(parseError(Array("<dict>".utf8) + document + Array("<true/></dict>".utf8))?.offset == 11)
            }
            // Valid multi-byte sequences pass.
            #expect(try parseXML("<string>é€😀</string>") == .string("é€😀"))
        }

        @Test func duplicateKeysLaterWins() throws {
            let value = try parseXML(wrap("""
                <dict><key>a</key><integer>1</integer><key>b</key><integer>2</integer><key>a</key><integer>3</integer></dict>
                """))
            let dictionary = try #require(value.dictionary)
            #expect(dictionary.keys == ["a", "b"])
            #expect(dictionary["a"] == .integer(3))
        }

        @Test func structuralErrors() throws {
            // Mismatched end tags report the offset of the end tag.
            #expect(parseError("<plist><string>x</strong></plist>")?.offset == 16)
            #expect(parseError("<plist><array><string>x</string></dict></plist>")?.offset == 32)
            #expect(parseError("<plist><dict></array></plist>")?.offset == 13)
            #expect(parseError("<plist><string>x</string></plist")?.offset == 25)
            #expect(parseError("<plist><true/></plist><true/>")?.offset == 22, "trailing element")
            #expect(parseError("<plist><true/></plist>garbage")?.offset == 22, "trailing text")
            #expect(parseError("<true/><true/>")?.offset == 7)
            #expect(parseError("<plist><true/><true/></plist>")?.offset == 14)
            #expect(parseError("<plist><dict><string>x</string></dict></plist>")?.offset == 13, "value without key")
            #expect(parseError("<plist><dict><key>a</key></dict></plist>")?.offset == 13, "key without value")
            #expect(parseError("<plist><dict><key>a</key><key>b</key><true/></dict></plist>")?.offset == 13)
            #expect(parseError("<plist><array><key>a</key></array></plist>")?.offset == 14, "key outside dict")
            #expect(parseError("<plist><foo/></plist>")?.offset == 7, "unknown element")
            #expect(parseError("<plist><array>text</array></plist>")?.offset == 14)
            #expect(parseError("<plist><dict>text</dict></plist>")?.offset == 13)
            #expect(parseError("<plist></plist>") != nil)
            #expect(parseError("<plist/>") != nil)
            #expect(parseError("<plist><plist><true/></plist></plist>") != nil)
            #expect(parseError("<true>x</true>") != nil)
            #expect(parseError("<string>a</string") != nil)
            #expect(parseError("<string attr=\"x>a</string>") != nil)
            #expect(parseError("<!-- unterminated <true/>") != nil)
            #expect(parseError("<?xml version=\"1.0\"") != nil)
            #expect(parseError("<!DOCTYPE plist") != nil)
            #expect(parseError("<plist><!DOCTYPE plist><true/></plist>") != nil, "DOCTYPE only in the prolog")
            #expect(parseError("") != nil)
            #expect(parseError("   ") != nil)
            #expect(parseError("hello") != nil)
            #expect(parseError([0xFE, 0xFF, 0x00, 0x3C]) != nil)
            #expect(parseError("<") != nil)
            #expect(parseError("</plist>") != nil)
        }

        @Test func everyTruncationThrows() throws {
            let bytes = Array(sampleDocument.utf8)
            let end = try #require(sampleDocument.range(of: "</plist>")).upperBound
            let complete = sampleDocument.utf8.distance(from: sampleDocument.startIndex, to: end)
            for length in 0..<complete {
                #expect(throws: DecodeError.self, "prefix of \(length) bytes") {
                    try PropertyListReader.parse(Array(bytes[..<length]))
                }
            }
            #expect(try PropertyListReader.parse(Array(bytes[..<complete])).format == .xml)
        }

        @Test func nestingIsLimited() throws {
            let limit = PropertyListReader.maximumDepth
            let ok = String(repeating: "<array>", count: limit) + String(repeating: "</array>", count: limit)
            let tooDeep = String(repeating: "<array>", count: limit + 1) + String(repeating: "</array>", count: limit + 1)
            let mixed = String(repeating: "<dict><key>k</key>", count: limit + 1) + "<true/>"
                + String(repeating: "</dict>", count: limit + 1)
            // Far deeper than any stack could take if the parser recursed without a limit.
            let hostile = String(repeating: "<array>", count: 100_000) + String(repeating: "</array>", count: 100_000)
            let unclosed = String(repeating: "<array>", count: 100_000)
            let outcomes = try parseOnDecodingStack([ok, tooDeep, mixed, wrap(hostile), unclosed].map { Array($0.utf8) })
            #expect(throws: Never.self) { try outcomes[0].get() }
            for outcome in outcomes.dropFirst() { #expect(parseError(outcome) != nil) }
        }

        @Test func randomCorruptionNeverCrashes() throws {
            var generator = SplitMix64(seed: 0x5EED)
            let original = Array(sampleDocument.utf8)
            var refused = 0
            for _ in 0..<2_000 {
                var bytes = original
                for _ in 0..<(1 + Int(generator.next() % 4)) {
                    let index = Int(generator.next() % UInt64(bytes.count))
                    bytes[index] = UInt8(truncatingIfNeeded: generator.next())
                }
                if refusedAsDecodeError(bytes) { refused += 1 }
            }
            // Each corrupt input either parses or is refused with a typed error, and some are refused.
            #expect(refused > 0)
        }
    }
}

/// The deterministic generator fuzz-style tests use, so they are reproducible.
typealias SplitMix64 = SeededRandom

/// `value` with every dictionary's keys sorted, to compare with Foundation (which loses key order).
func canonical(_ value: PlistValue) -> PlistValue {
    switch value {
    case .array(let items):
        return .array(items.map(canonical))
    case .dictionary(let dictionary):
        return .dictionary(PlistDictionary(dictionary.keys.sorted().map { ($0, canonical(dictionary[$0]!)) }))
    default:
        return value
    }
}

/// Foundation's parsed property-list object as a `PlistValue` (dictionary keys sorted).
func foundationValue(_ object: Any) -> PlistValue? {
    if let string = object as? String { return .string(string) }
    if type(of: object) == Bool.self, let bool = object as? Bool { return .bool(bool) }
    if let data = object as? Data { return .data([UInt8](data)) }
    if let date = object as? Date { return .date(date) }
    if let number = object as? NSNumber {
        #if canImport(Darwin)
        if CFGetTypeID(number) == CFBooleanGetTypeID() { return .bool(number.boolValue) }
        #endif
        switch String(cString: number.objCType) {
        case "d", "f": return .real(number.doubleValue)
        case "Q" where number.uint64Value > UInt64(Int64.max): return .unsignedInteger(number.uint64Value)
        default: return .integer(number.int64Value)
        }
    }
    if let array = object as? [Any] {
        var items: [PlistValue] = []
        for item in array {
            guard let value = foundationValue(item) else { return nil }
            items.append(value)
        }
        return .array(items)
    }
    if let dictionary = object as? [String: Any] {
        var pairs: [(String, PlistValue)] = []
        for key in dictionary.keys.sorted() {
            guard let value = foundationValue(dictionary[key]!) else { return nil }
            pairs.append((key, value))
        }
        return .dictionary(PlistDictionary(pairs))
    }
    return nil
}

/// Conformance with the real-world corpus (`../shared/real-corpus` next to the package), skipped when absent.
extension PlistTests {
    @Suite struct RealCorpusPlistTests {
        /// From `TestPaths`, which also honours `CATALOG_TEST_NO_REAL_CORPUS`.
        static var corpus: URL { URL(fileURLWithPath: TestPaths.realCorpus ?? "/nonexistent") }

        static var available: Bool {
            TestPaths.realCorpus != nil
                && FileManager.default.fileExists(atPath: corpus.appendingPathComponent("tree").path)
        }

        static func expectedFiles() throws -> [[String: Any]] {
            let data = try Data(contentsOf: corpus.appendingPathComponent("expected.json"))
            let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return try #require(root["files"] as? [[String: Any]])
        }

        static func bytes(_ relativePath: String) throws -> [UInt8] {
            [UInt8](try Data(contentsOf: corpus.appendingPathComponent(relativePath)))
        }

        @Test(.enabled(if: available, Comment(rawValue: TestPaths.realCorpusAbsent))) func infoPlistsMatchExpected() throws {
            var checked = 0
            for entry in try Self.expectedFiles() {
                guard let type = entry["type"] as? String, let path = entry["path"] as? String else { continue }
                if type == "invalid" {
                    #expect(throws: DecodeError.self, "\(path)") { try PropertyListReader.parse(try Self.bytes(path)) }
                    continue
                }
                guard type == "info-plist" else { continue }
                let (value, format) = try PropertyListReader.parse(try Self.bytes(path))
                #expect(format.rawValue == entry["format"] as? String, "\(path)")
                let dictionary = try #require(value.dictionary, "\(path)")
                for (field, key) in [("bundle_id", "CFBundleIdentifier"), ("short_version", "CFBundleShortVersionString"),
                                     ("build", "CFBundleVersion"), ("package_type", "CFBundlePackageType")] {
                    #expect(dictionary[key]?.string == entry[field] as? String, "\(path): \(key)")
                }
                checked += 1
            }
            #expect(checked > 0)
        }

        /// Every Info.plist under `tree/` (including ones expected.json doesn't list, such as .xcarchive
        /// Info.plists) parses unless listed as invalid, and agrees with Foundation where Foundation parses it.
        @Test(.enabled(if: available, Comment(rawValue: TestPaths.realCorpusAbsent))) func everyInfoPlistAgreesWithFoundation() throws {
            let invalid = Set(try Self.expectedFiles().filter { $0["type"] as? String == "invalid" }
                .compactMap { $0["path"] as? String })
            let tree = Self.corpus.appendingPathComponent("tree")
            let enumerator = try #require(FileManager.default.enumerator(atPath: tree.path))
            var checked = 0
            var compared = 0
            while let relative = enumerator.nextObject() as? String {
                guard (relative as NSString).lastPathComponent.lowercased() == "info.plist" else { continue }
                let path = "tree/" + relative
                if invalid.contains(path) { continue }
                let bytes = try Self.bytes(path)
                let ours = try PropertyListReader.parse(bytes).value
                if let theirs = try? PropertyListSerialization.propertyList(from: Data(bytes), format: nil),
                   let converted = foundationValue(theirs) {
                    #expect(canonical(ours) == converted, "\(path)")
                    compared += 1
                }
                checked += 1
            }
            #expect(checked > 60)
            #expect(compared > checked / 2)
        }

        /// The XML plist inside each profile (sliced out here only: the CMS reader is another module's job)
        /// parses and carries the expected UUID; real profiles use `&#32418;`-style references.
        @Test(.enabled(if: available, Comment(rawValue: TestPaths.realCorpusAbsent))) func profilePlistsCarryExpectedUUIDs() throws {
            var checked = 0
            for entry in try Self.expectedFiles() where entry["type"] as? String == "profile" {
                let path = try #require(entry["path"] as? String)
                let bytes = try Self.bytes(path)
                let start = try #require(find(Array("<?xml".utf8), in: bytes), "\(path)")
                let endTag = Array("</plist>".utf8)
                let end = try #require(find(endTag, in: bytes, from: start), "\(path)") + endTag.count
                let (value, format) = try PropertyListReader.parse(Array(bytes[start..<end]))
                #expect(format == .xml)
                let uuid = try #require(value.dictionary?["UUID"]?.string, "\(path)")
                #expect(uuid.uppercased() == (entry["uuid"] as? String)?.uppercased(), "\(path)")
                checked += 1
            }
            #expect(checked > 0)
        }
    }
}

private func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
    guard needle.count <= haystack.count else { return nil }
    var index = start
    while index + needle.count <= haystack.count {
        if haystack[index] == needle[0], Array(haystack[index..<(index + needle.count)]) == needle { return index }
        index += 1
    }
    return nil
}
