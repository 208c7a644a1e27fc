import Foundation
import Testing
import CatalogTestSupport
@testable import CatalogCore

/// Issue 51 §3: a bundle's files against its `CodeResources`, one change at a time, in a folder the
/// test writes (the seal's hashes computed here); the fixtures under `Fixtures/integrity` cover the
/// same through `.app`, `.ipa` and `.xcarchive`.
@Suite struct ResourceSealTests {
    /// Xcode's iOS rules (as in real seals): `^.*` seals everything, `.lproj` files are optional,
    /// Info.plist and PkgInfo are left out, `.DS_Store` omitted everywhere; the macOS nested rule.
    static var rules: [String: Any] { [
        "^.*": true,
        "^.*\\.lproj/": ["optional": true, "weight": 1000.0],
        "^(.*/)?\\.DS_Store$": ["omit": true, "weight": 2000.0],
        "^Info\\.plist$": ["omit": true, "weight": 20.0],
        "^PkgInfo$": ["omit": true, "weight": 20.0],
        "^(Frameworks|PlugIns)/": ["nested": true, "weight": 10.0],
    ] }

    /// A bundle folder: `App` (its executable, never sealed), Info.plist, two resources, a localised
    /// one, a link, and a nested framework sealed by cdhash.
    struct Bundle {
        let scratch: Scratch
        var root: String { scratch.file("App.app") }

        init() throws {
            scratch = try Scratch()
            for (path, text) in [("App", "code"), ("Info.plist", "<plist/>"), ("data.json", "{}"), ("Assets.car", "assets"),
                                 ("en.lproj/Main.strings", "strings"), ("Frameworks/Kit.framework/Kit", "kit")] {
                try write(path, text)
            }
            try FileManager.default.createSymbolicLink(atPath: root + "/link.json", withDestinationPath: "data.json")
        }

        func write(_ path: String, _ text: String) throws {
            let url = URL(fileURLWithPath: root + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        /// The seal of the files as they are now (the framework by `cdhash`), in `files2` or, with
        /// `legacy`, in `files` and `rules` only.
        func seal(legacy: Bool = false, binary: Bool = false) throws -> [UInt8] {
            var files: [String: Any] = [:]
            for path in ["data.json", "Assets.car", "en.lproj/Main.strings"] {
                let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: root + "/" + path)))
                files[path] = legacy ? Data(Digest.sha1(bytes)) as Any
                    : ["hash": Data(Digest.sha1(bytes)), "hash2": Data(Digest.sha256(bytes)), "optional": path.contains(".lproj")]
            }
            if !legacy {
                files["link.json"] = ["symlink": "data.json"]
                files["Frameworks/Kit.framework"] = ["cdhash": Data(repeating: 0xAB, count: 20), "requirement": "anchor apple generic"]
            }
            let plist: [String: Any] = legacy ? ["files": files, "rules": ResourceSealTests.rules]
                : ["files": [:] as [String: Any], "files2": files, "rules": [:] as [String: Any], "rules2": ResourceSealTests.rules]
            return Array(try PropertyListSerialization.data(fromPropertyList: plist, format: binary ? .binary : .xml, options: 0))
        }

        func check(_ seal: [UInt8], cdhash: String? = String(repeating: "AB", count: 20)) throws -> [String] {
            let parsed = try ResourceSeal(bytes: seal, path: root + "/_CodeSignature/CodeResources")
            return ResourceSealCheck.check(parsed, files: FolderBundleFiles(root: root), base: "", excluded: ["App"],
                                           nestedCDHashes: { $0 == "Frameworks/Kit.framework" ? cdhash.map { [$0] } : nil })
                .map { "\($0.code.rawValue) \($0.path)" }
        }
    }

    @Test func anUnchangedBundleMatchesItsSeal() throws {
        let bundle = try Bundle()
        #expect(try bundle.check(try bundle.seal()) == [])
        #expect(try bundle.check(try bundle.seal(binary: true)) == [], "a binary-plist seal reads the same")
        #expect(try bundle.check(try bundle.seal(legacy: true)).filter { !$0.contains("Kit") && !$0.contains("link") } == [],
                "a legacy SHA-1 seal (files and rules only)")
    }

    @Test func eachChangeIsNamed() throws {
        let bundle = try Bundle()
        let seal = try bundle.seal()
        try bundle.write("data.json", "{\"changed\": true}")
        try bundle.write("Extra.png", "new")
        try FileManager.default.removeItem(atPath: bundle.root + "/Assets.car")
        #expect(try bundle.check(seal) == ["resource-missing Assets.car", "resource-added Extra.png", "resource-modified data.json"])
    }

    @Test func whatTheRulesLeaveOutMayChange() throws {
        let bundle = try Bundle()
        let seal = try bundle.seal()
        // Omitted by rule (Info.plist, which special slot -1 binds instead; .DS_Store), an optional
        // localised file removed, the executable (sealed by the CodeDirectory) changed.
        try bundle.write("Info.plist", "<plist>changed</plist>")
        try bundle.write("PkgInfo", "APPL????")
        try bundle.write("en.lproj/.DS_Store", "finder")
        try bundle.write("App", "other code")
        try FileManager.default.removeItem(atPath: bundle.root + "/en.lproj/Main.strings")
        #expect(try bundle.check(seal) == [])
    }

    @Test func linksAndNestedCodeAreComparedAsSuch() throws {
        let bundle = try Bundle()
        let seal = try bundle.seal()
        try FileManager.default.removeItem(atPath: bundle.root + "/link.json")
        try FileManager.default.createSymbolicLink(atPath: bundle.root + "/link.json", withDestinationPath: "Assets.car")
        #expect(try bundle.check(seal, cdhash: String(repeating: "CD", count: 20))
                == ["nested-code-modified Frameworks/Kit.framework", "resource-modified link.json"])
        #expect(try bundle.check(seal, cdhash: nil) == ["signature-unreadable Frameworks/Kit.framework", "resource-modified link.json"])
        // Nested code the seal does not list is an addition, as a file would be.
        try bundle.write("PlugIns/Share.appex/Share", "extension")
        #expect(try bundle.check(seal).contains("resource-added PlugIns/Share.appex"))
    }

    @Test func aSealThatIsNoSealIsAnErrorNamingIt() throws {
        let bundle = try Bundle()
        let path = bundle.root + "/_CodeSignature/CodeResources"
        #expect { try ResourceSeal(bytes: Array("not a plist".utf8), path: path) } throws: { error in
            (error as? DecodeError)?.path == path
        }
        let noFiles = Array(try PropertyListSerialization.data(fromPropertyList: ["rules2": [:] as [String: Any]], format: .xml, options: 0))
        #expect(throws: DecodeError.self) { try ResourceSeal(bytes: noFiles, path: path) }
        let badRule = Array(try PropertyListSerialization.data(fromPropertyList: ["files2": [:] as [String: Any], "rules2": ["(": true]],
                                                               format: .xml, options: 0))
        #expect(throws: DecodeError.self) { try ResourceSeal(bytes: badRule, path: path) }
    }

    @Test func theHighestWeightDecidesAndOmitWinsATie() throws {
        let rules: [String: Any] = ["^": ["weight": 20.0], "^Info\\.plist$": ["omit": true, "weight": 20.0],
                                    "^Base\\.lproj/": ["weight": 1010.0], "^.*\\.lproj/": ["optional": true, "weight": 1000.0]]
        let bytes = Array(try PropertyListSerialization.data(fromPropertyList: ["files2": [:] as [String: Any], "rules2": rules],
                                                             format: .xml, options: 0))
        let seal = try ResourceSeal(bytes: bytes, path: "CodeResources")
        #expect(seal.rule(for: "Info.plist")?.omit == true)
        #expect(seal.rule(for: "Base.lproj/Main.nib")?.optional == false)
        #expect(seal.rule(for: "fr.lproj/Main.strings")?.optional == true)
        #expect(seal.rule(for: "Assets.car")?.pattern == "^")
    }
}
