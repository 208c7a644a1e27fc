import Testing
@testable import CatalogCore

/// Keys the XML parser returns as literals read exactly as any other key: the same text, found
/// only when every byte matches, with entities and invalid UTF-8 handled as before.
@Suite struct PlistKeyLiteralsTests {
    private func keys(_ body: String) throws -> [String] {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict>\(body)</dict></plist>\n"
        guard case .dictionary(let dictionary) = try PropertyListReader.parse(Array(text.utf8)).value else {
            Issue.record("not a dictionary")
            return []
        }
        return dictionary.keys
    }

    @Test func everyLiteralIsFoundByItsOwnBytesOnly() throws {
        for key in PlistKeyLiterals.all {
            let found = Array(key.utf8).withUnsafeBufferPointer { PlistKeyLiterals.literal($0) }
            #expect(found == (key.utf8.count > 15 ? key : nil))
            var changed = Array(key.utf8)
            changed[changed.count - 1] ^= 0x20
            #expect(changed.withUnsafeBufferPointer { PlistKeyLiterals.literal($0) } == nil)
            #expect((Array(key.utf8) + [0x61]).withUnsafeBufferPointer { PlistKeyLiterals.literal($0) } == nil)
        }
        #expect(Set(PlistKeyLiterals.all).count == PlistKeyLiterals.all.count)
    }

    @Test func parsedKeysAreTheSameText() throws {
        #expect(try keys("<key>ProvisionedDevices</key><true/><key>ProvisionedDevicez</key><true/>")
                == ["ProvisionedDevices", "ProvisionedDevicez"])
        // An entity spells a literal's text: the decoded text is the key, literal or not.
        #expect(try keys("<key>application&#45;identifier</key><string>x</string>") == ["application-identifier"])
        #expect(try keys("<key>com.apple.developer.team-identifier</key><string>T</string>")
                == ["com.apple.developer.team-identifier"])
    }

    @Test func invalidUTF8InALongKeyIsStillAnError() {
        var bytes = Array("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>ProvisionedDevices".utf8)
        bytes += [0xFF]
        bytes += Array("</key><true/></dict></plist>".utf8)
        #expect(parseError(bytes) != nil)
    }
}
