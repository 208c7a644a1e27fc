import CatalogCore
import CatalogTestSupport
import Foundation
import Testing

/// `catalog` decodes a profile nested to the parsers' depth limit whatever stack `ulimit -s` gives
/// its main thread (as small as macOS gives other threads): the command and the decoders run on
/// threads whose stack size the code sets.
@Suite(.timeLimit(.minutes(10))) struct StackLimitTests {
    /// `bare-plist.mobileprovision` as a binary plist whose entitlements nest arrays down to the
    /// depth limit (the profile's dictionary and its entitlements are the first two levels).
    static func deepProfile(at path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixtures + "/profiles/bare-plist.mobileprovision"))
        var profile = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        var nested: Any = true
        for _ in 0..<(PropertyListReader.maximumDepth - 2) { nested = [nested] }
        var entitlements = profile["Entitlements"] as? [String: Any] ?? [:]
        entitlements["deep"] = nested
        profile["Entitlements"] = entitlements
        try PropertyListSerialization.data(fromPropertyList: profile, format: .binary, options: 0)
            .write(to: URL(fileURLWithPath: path))
    }

    /// Runs `catalog arguments` with its stack limited to 512 KiB.
    static func runWithSmallStack(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try CatalogProcess.runAsScheduled("/bin/sh", ["-c", "ulimit -s 512 && exec \"$0\" \"$@\"",
                                                      CatalogProcess.executable] + arguments,
                                          environment: ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()])
    }

    @Test(.timeLimit(.minutes(10)))
    func aProfileNestedToTheDepthLimitIsDecodedIngestedAndShownUnderASmallStackLimit() throws {
        let scratch = try Scratch()
        let folder = scratch.path
        let profile = folder + "/deep.mobileprovision"
        try Self.deepProfile(at: profile)

        let decoded = try Self.runWithSmallStack(["decode", profile, "--json"])
        #expect(decoded.status == 0, "\(decoded.output)")
        #expect(decoded.output.contains("\"deep\""), "\(decoded.output)")
        let ingested = try Self.runWithSmallStack(["ingest", folder, "--db", folder + "/catalog.sqlite", "--quiet"])
        #expect(ingested.status == 0, "\(ingested.output)")
        let shown = try Self.runWithSmallStack(["show", profile, "--db", folder + "/catalog.sqlite", "--json"])
        #expect(shown.status == 0, "\(shown.output)")
        #expect(shown.output.contains("\"deep\""), "\(shown.output)")
    }
}
