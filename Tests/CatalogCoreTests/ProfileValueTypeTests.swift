import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

/// A profile plist with the wrong value type for any typed key is refused with an error naming
/// that key — for every key the decoder types, not only the ones the fixtures happen to break.
@Suite struct ProfileValueTypeTests {
    func baseDictionary() throws -> PlistDictionary {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixtures + "/profiles/bare-plist.mobileprovision")))
        let (root, _) = try PropertyListReader.parse(bytes)
        return try #require(root.dictionary)
    }

    /// A value of a type no typed key accepts in its place.
    static func wrongValue(for key: String) -> PlistValue {
        switch key {
        case "TimeToLive", "Version": return .string("365")
        case "UUID", "Name", "AppIDName", "TeamName": return .integer(7)
        default: return .string("not the right type")
        }
    }

    @Test(arguments: ProfileDecoder.knownKeys.sorted())
    func wrongTypeIsAnInvalidValueNamingTheKey(key: String) throws {
        var dict = try baseDictionary()
        dict[key] = Self.wrongValue(for: key)
        do {
            _ = try ProfileDecoder.profile(from: dict, rawPlist: [], envelopeCertificates: 0)
            Issue.record("\(key) with a wrong type decoded")
        } catch let error as DecodeError {
            #expect(error.kind == .invalidValue, "\(key): \(error)")
            #expect(error.reason.hasPrefix(key), "\(key): \(error.reason)")
        }
    }

    @Test(arguments: ["UUID", "Name", "CreationDate", "ExpirationDate"])
    func missingRequiredKeyIsAnInvalidValue(key: String) throws {
        var dict = try baseDictionary()
        dict[key] = nil
        #expect(throws: DecodeError.self) {
            try ProfileDecoder.profile(from: dict, rawPlist: [], envelopeCertificates: 0)
        }
    }

    @Test func wrongTypeInsideAnArrayNamesTheIndex() throws {
        var dict = try baseDictionary()
        dict["ProvisionedDevices"] = .array([.string("ok"), .integer(3)])
        do {
            _ = try ProfileDecoder.profile(from: dict, rawPlist: [], envelopeCertificates: 0)
            Issue.record("decoded")
        } catch let error as DecodeError {
            #expect(error.reason.hasPrefix("ProvisionedDevices[1]"))
        }
    }
}
