/// Where an app keeps bundles that are builds of their own (extensions, watch apps, App Clips,
/// login items, system extensions), each with its own bundle id and embedded profile, catalogued
/// with the app as parent: the folders the ingest walk enters in an `.app` folder, and the same
/// inside an `.ipa` or an app zip.
package enum NestedBuilds {
    /// Folders relative to the app bundle: iOS's flat layout, then macOS's `Contents/`.
    package static let folders = ["PlugIns", "Watch", "AppClips", "Contents/PlugIns", "Contents/Extensions",
                                  "Contents/Library/LoginItems", "Contents/Library/SystemExtensions"]
    package static let suffixes = [".appex", ".app", ".systemextension"]

    /// The nested bundles of the app at `app` (a folder of `files`) that hold an Info.plist, in
    /// the order of ``folders`` and then by name.
    package static func bundles(in app: String, _ files: any BundleFiles) -> [String] {
        var found: [String] = []
        for folder in folders {
            let path = BuildBinaryReader.join(app, folder)
            for name in files.children(of: path) where suffixes.contains(where: { name.hasSuffix($0) && name.count > $0.count }) {
                let bundle = path + "/" + name
                if files.isFile(bundle + "/Info.plist") || files.isFile(bundle + "/Contents/Info.plist") {
                    found.append(bundle)
                }
            }
        }
        return found
    }
}
